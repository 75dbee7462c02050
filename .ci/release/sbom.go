package main

import (
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// An SPDX 2.3 document in its JSON form, with the fields this program fills.
type spdxDocument struct {
	SPDXVersion       string             `json:"spdxVersion"`
	DataLicense       string             `json:"dataLicense"`
	SPDXID            string             `json:"SPDXID"`
	Name              string             `json:"name"`
	DocumentNamespace string             `json:"documentNamespace"`
	CreationInfo      spdxCreationInfo   `json:"creationInfo"`
	Packages          []spdxPackage      `json:"packages"`
	Files             []spdxFile         `json:"files"`
	Relationships     []spdxRelationship `json:"relationships"`
}

type spdxCreationInfo struct {
	Created  string   `json:"created"`
	Creators []string `json:"creators"`
}

type spdxPackage struct {
	Name                  string            `json:"name"`
	SPDXID                string            `json:"SPDXID"`
	VersionInfo           string            `json:"versionInfo,omitempty"`
	DownloadLocation      string            `json:"downloadLocation"`
	FilesAnalyzed         bool              `json:"filesAnalyzed"`
	PackageFileName       string            `json:"packageFileName,omitempty"`
	Checksums             []spdxChecksum    `json:"checksums,omitempty"`
	PrimaryPackagePurpose string            `json:"primaryPackagePurpose,omitempty"`
	ExternalRefs          []spdxExternalRef `json:"externalRefs,omitempty"`
	Comment               string            `json:"comment,omitempty"`
}

type spdxFile struct {
	FileName  string         `json:"fileName"`
	SPDXID    string         `json:"SPDXID"`
	Checksums []spdxChecksum `json:"checksums"`
}

type spdxChecksum struct {
	Algorithm     string `json:"algorithm"`
	ChecksumValue string `json:"checksumValue"`
}

type spdxExternalRef struct {
	ReferenceCategory string `json:"referenceCategory"`
	ReferenceType     string `json:"referenceType"`
	ReferenceLocator  string `json:"referenceLocator"`
}

type spdxRelationship struct {
	Element string `json:"spdxElementId"`
	Type    string `json:"relationshipType"`
	Related string `json:"relatedSpdxElement"`
}

// sbomCommand writes the SPDX document of archive to document: `sbom ARCHIVE DOCUMENT`.
// The time it records is $SOURCE_DATE_EPOCH when set (the commit's), so that a rebuild of
// the same commit writes the same document.
func sbomCommand(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: sbom ARCHIVE DOCUMENT")
	}
	created := time.Now().UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("SOURCE_DATE_EPOCH: %w", err)
		}
		created = time.Unix(sec, 0).UTC()
	}
	doc, err := archiveSBOM(args[0], created)
	if err != nil {
		return err
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(args[1], append(out, '\n'), 0o644)
}

// archiveSBOM describes archive: the archive, the mcpscope binary in it, the Go toolchain
// it was built with and every module linked into it, as its build information lists them.
func archiveSBOM(archive string, created time.Time) (*spdxDocument, error) {
	raw, err := os.ReadFile(archive)
	if err != nil {
		return nil, err
	}
	entries, err := readArchive(archive)
	if err != nil {
		return nil, err
	}
	bin, err := findBinary(entries)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", archive, err)
	}
	bi, err := buildinfo.Read(bytes.NewReader(bin.data))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", archive, bin.name, err)
	}
	name := filepath.Base(archive)
	archiveSum := sha256Hex(raw)
	doc := &spdxDocument{
		SPDXVersion:       "SPDX-2.3",
		DataLicense:       "CC0-1.0",
		SPDXID:            "SPDXRef-DOCUMENT",
		Name:              name,
		DocumentNamespace: "https://github.com/mcpscope/mcpscope/spdx/" + name + "-" + archiveSum,
		CreationInfo: spdxCreationInfo{
			Created:  created.Format(time.RFC3339),
			Creators: []string{"Organization: mcpscope authors", "Tool: mcpscope-release"},
		},
	}
	const archiveID, binaryID, mainID = "SPDXRef-Archive", "SPDXRef-File-binary", "SPDXRef-Package-main"
	doc.Packages = append(doc.Packages, spdxPackage{
		Name: name, SPDXID: archiveID, DownloadLocation: "NOASSERTION", PackageFileName: name,
		Checksums:             []spdxChecksum{{"SHA256", archiveSum}},
		PrimaryPackagePurpose: "ARCHIVE",
	})
	doc.Files = append(doc.Files, spdxFile{FileName: "./" + bin.name, SPDXID: binaryID, Checksums: []spdxChecksum{{"SHA256", sha256Hex(bin.data)}}})
	doc.Relationships = append(doc.Relationships,
		spdxRelationship{"SPDXRef-DOCUMENT", "DESCRIBES", archiveID},
		spdxRelationship{archiveID, "CONTAINS", binaryID},
		spdxRelationship{binaryID, "GENERATED_FROM", mainID})

	// The version GoReleaser gives (goreleaser.yaml); a -trimpath build does not record
	// its -ldflags, where the stamp is.
	version := os.Getenv("MCPSCOPE_VERSION")
	if version == "" {
		version = stampedVersion(bi)
	}
	doc.Packages = append(doc.Packages, goPackage(mainID, bi.Main.Path, version, "APPLICATION", ""))
	goVersion := strings.TrimPrefix(bi.GoVersion, "go")
	doc.Packages = append(doc.Packages, goPackage("SPDXRef-Package-stdlib", "stdlib", goVersion, "LIBRARY", "the Go toolchain and standard library, "+bi.GoVersion))
	doc.Relationships = append(doc.Relationships, spdxRelationship{mainID, "DEPENDS_ON", "SPDXRef-Package-stdlib"})
	for i, m := range bi.Deps {
		var notes []string
		if m.Replace != nil {
			notes = append(notes, "replaces "+m.Path+" "+m.Version)
			m = m.Replace
		}
		if m.Sum != "" {
			notes = append(notes, "go.sum hash "+m.Sum)
		}
		id := fmt.Sprintf("SPDXRef-Package-%d", i+1)
		p := goPackage(id, m.Path, m.Version, "LIBRARY", strings.Join(notes, "; "))
		doc.Packages = append(doc.Packages, p)
		doc.Relationships = append(doc.Relationships, spdxRelationship{mainID, "DEPENDS_ON", id})
	}
	return doc, nil
}

// goPackage is the SPDX package of a Go module, with its package URL.
func goPackage(id, modPath, version, purpose, comment string) spdxPackage {
	p := spdxPackage{
		Name: modPath, SPDXID: id, VersionInfo: version, DownloadLocation: "NOASSERTION",
		PrimaryPackagePurpose: purpose, Comment: comment,
	}
	purl := "pkg:golang/" + modPath
	if version != "" {
		purl += "@" + version
	}
	p.ExternalRefs = []spdxExternalRef{{"PACKAGE-MANAGER", "purl", purl}}
	return p
}

// stampedVersion is the version the release stamped into the binary (session.version in
// its -ldflags), else the module version of its build information.
func stampedVersion(bi *debug.BuildInfo) string {
	if v := ldflagValue(bi, "github.com/mcpscope/mcpscope/session.version"); v != "" {
		return v
	}
	return bi.Main.Version
}

// ldflagValue is the value a build's -ldflags set for name with -X, or "".
func ldflagValue(bi *debug.BuildInfo, name string) string {
	for _, s := range bi.Settings {
		if s.Key != "-ldflags" {
			continue
		}
		for _, f := range strings.Fields(s.Value) {
			if v, ok := strings.CutPrefix(f, name+"="); ok {
				return v
			}
		}
	}
	return ""
}

// findBinary is the mcpscope executable of an archive's files.
func findBinary(entries []entry) (entry, error) {
	if e, err := findEntry(entries, "mcpscope.exe"); err == nil {
		return e, nil
	}
	return findEntry(entries, "mcpscope")
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
