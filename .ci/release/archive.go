package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
)

// maxEntry bounds one file read out of an archive: mcpscope's binary is some tens of MB.
const maxEntry = 512 << 20

// entry is one regular file of an archive.
type entry struct {
	name string // its path inside the archive, with slashes
	mode os.FileMode
	data []byte
}

// readArchive returns the regular files of a .tar.gz or .zip archive.
func readArchive(file string) ([]entry, error) {
	switch {
	case strings.HasSuffix(file, ".tar.gz"):
		return readTarGz(file)
	case strings.HasSuffix(file, ".zip"):
		return readZip(file)
	}
	return nil, fmt.Errorf("%s: not a .tar.gz or .zip archive", file)
}

func readTarGz(file string) ([]entry, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []entry
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := readBounded(tr, h.Name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out = append(out, entry{name: h.Name, mode: h.FileInfo().Mode(), data: data})
	}
}

func readZip(file string) ([]entry, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	var out []entry
	for _, zf := range zr.File {
		if !zf.Mode().IsRegular() {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		data, err := readBounded(rc, zf.Name)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out = append(out, entry{name: zf.Name, mode: zf.Mode(), data: data})
	}
	return out, nil
}

func readBounded(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxEntry+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxEntry {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, maxEntry)
	}
	return data, nil
}

// findEntry returns the file of entries whose base name is base, or an error when there
// is not exactly one.
func findEntry(entries []entry, base string) (entry, error) {
	var found []entry
	for _, e := range entries {
		if path.Base(e.name) == base {
			found = append(found, e)
		}
	}
	if len(found) != 1 {
		return entry{}, fmt.Errorf("%d files named %s, want 1", len(found), base)
	}
	return found[0], nil
}

// exe describes an executable as its own headers say: the operating system its format is
// made for (ELF here means linux: the only ELF target of the release), its architecture
// (GOARCH names), and whether it still has a symbol table or DWARF debugging information.
type exe struct {
	goos, goarch string
	symbols      bool
	dwarf        bool
}

// inspect reads an executable's headers.
func inspect(data []byte) (exe, error) {
	r := bytes.NewReader(data)
	if f, err := elf.NewFile(r); err == nil {
		x := exe{goos: "linux", symbols: f.Section(".symtab") != nil, dwarf: f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil}
		switch f.Machine {
		case elf.EM_X86_64:
			x.goarch = "amd64"
		case elf.EM_AARCH64:
			x.goarch = "arm64"
		default:
			return x, fmt.Errorf("ELF machine %v", f.Machine)
		}
		return x, nil
	}
	if f, err := macho.NewFile(r); err == nil {
		// A stripped Mach-O binary keeps the symbols it imports (undefined ones): only
		// symbols defined in a section count.
		const nType, nSect = 0x0e, 0x0e
		x := exe{goos: "darwin", dwarf: f.Segment("__DWARF") != nil}
		for _, s := range symtabOf(f) {
			x.symbols = x.symbols || s.Type&nType == nSect
		}
		switch f.Cpu {
		case macho.CpuAmd64:
			x.goarch = "amd64"
		case macho.CpuArm64:
			x.goarch = "arm64"
		default:
			return x, fmt.Errorf("Mach-O cpu %v", f.Cpu)
		}
		return x, nil
	}
	if f, err := pe.NewFile(r); err == nil {
		x := exe{goos: "windows", symbols: f.NumberOfSymbols > 0, dwarf: f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil}
		switch f.Machine {
		case pe.IMAGE_FILE_MACHINE_AMD64:
			x.goarch = "amd64"
		case pe.IMAGE_FILE_MACHINE_ARM64:
			x.goarch = "arm64"
		default:
			return x, fmt.Errorf("PE machine %#x", f.Machine)
		}
		return x, nil
	}
	return exe{}, errors.New("neither ELF, Mach-O nor PE")
}

func symtabOf(f *macho.File) []macho.Symbol {
	if f.Symtab == nil {
		return nil
	}
	return f.Symtab.Syms
}
