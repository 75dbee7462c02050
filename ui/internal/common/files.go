package common

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SafeName keeps letters, digits, dots and dashes; anything else becomes "_".
func SafeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
	s = strings.Trim(s, "._")
	if len(s) > 60 {
		s = s[:60]
	}
	if s == "" {
		s = "frame"
	}
	return s
}

// SaveFile writes data to dir/name, never over an existing file: a taken name gets a
// "-1", "-2" … suffix before its extension.
func SaveFile(dir, name string, data []byte) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 0; i < 1000; i++ {
		n := name
		if i > 0 {
			n = fmt.Sprintf("%s-%d%s", stem, i, ext)
		}
		path := filepath.Join(dir, n)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path)
			return "", fmt.Errorf("write %s: %w", path, werr)
		}
		return path, nil
	}
	return "", fmt.Errorf("every name like %s is taken in %s", name, dir)
}
