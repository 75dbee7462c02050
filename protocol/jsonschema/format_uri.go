package jsonschema

import (
	gourl "net/url"
	"strings"
)

func parseURL(s string) (*gourl.URL, error) {
	u, err := gourl.Parse(s)
	if err != nil {
		return nil, err
	}

	// gourl does not validate ipv6 host address
	hostName := u.Hostname()
	if strings.Contains(hostName, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") {
			return nil, LocalizableError("ipv6 address not enclosed in brackets")
		}
		if err := validateIPV6(hostName); err != nil {
			return nil, LocalizableError("invalid ipv6 address: %v", err)
		}
	}

	return u, nil
}

func validateURI(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	u, err := parseURL(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() {
		return LocalizableError("relative url")
	}
	return nil
}

func validateURIReference(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if strings.Contains(s, `\`) {
		return LocalizableError(`contains \`)
	}
	_, err := parseURL(s)
	return err
}

func validateURITemplate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	u, err := parseURL(s)
	if err != nil {
		return err
	}
	for _, tok := range strings.Split(u.RawPath, "/") {
		tok, err = decode(tok)
		if err != nil {
			return LocalizableError("percent decode failed: %v", err)
		}
		want := true
		for _, ch := range tok {
			var got bool
			switch ch {
			case '{':
				got = true
			case '}':
				got = false
			default:
				continue
			}
			if got != want {
				return LocalizableError("nested curly braces")
			}
			want = !want
		}
		if !want {
			return LocalizableError("no matching closing brace")
		}
	}
	return nil
}

func validatePeriod(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}

	slash := strings.IndexByte(s, '/')
	if slash == -1 {
		return LocalizableError("missing slash")
	}

	start, end := s[:slash], s[slash+1:]
	if strings.HasPrefix(start, "P") {
		if err := validateDuration(start); err != nil {
			return LocalizableError("invalid start duration: %v", err)
		}
		if err := validateDateTime(end); err != nil {
			return LocalizableError("invalid end date-time: %v", err)
		}
	} else {
		if err := validateDateTime(start); err != nil {
			return LocalizableError("invalid start date-time: %v", err)
		}
		if strings.HasPrefix(end, "P") {
			if err := validateDuration(end); err != nil {
				return LocalizableError("invalid end duration: %v", err)
			}
		} else if err := validateDateTime(end); err != nil {
			return LocalizableError("invalid end date-time: %v", err)
		}
	}

	return nil
}

// see https://semver.org/#backusnaur-form-grammar-for-valid-semver-versions
func validateSemver(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}

	// build --
	if i := strings.IndexByte(s, '+'); i != -1 {
		build := s[i+1:]
		if build == "" {
			return LocalizableError("build is empty")
		}
		for _, buildID := range strings.Split(build, ".") {
			if buildID == "" {
				return LocalizableError("build identifier is empty")
			}
			for _, ch := range buildID {
				switch {
				case ch >= '0' && ch <= '9':
				case (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '-':
				default:
					return LocalizableError("invalid character %q in build identifier", ch)
				}
			}
		}
		s = s[:i]
	}

	// pre-release --
	if i := strings.IndexByte(s, '-'); i != -1 {
		preRelease := s[i+1:]
		for _, preReleaseID := range strings.Split(preRelease, ".") {
			if preReleaseID == "" {
				return LocalizableError("pre-release identifier is empty")
			}
			allDigits := true
			for _, ch := range preReleaseID {
				switch {
				case ch >= '0' && ch <= '9':
				case (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '-':
					allDigits = false
				default:
					return LocalizableError("invalid character %q in pre-release identifier", ch)
				}
			}
			if allDigits && len(preReleaseID) > 1 && preReleaseID[0] == '0' {
				return LocalizableError("pre-release numeric identifier starts with zero")
			}
		}
		s = s[:i]
	}

	// versionCore --
	versions := strings.Split(s, ".")
	if len(versions) != 3 {
		return LocalizableError("versionCore must have 3 numbers separated by dot")
	}
	names := []string{"major", "minor", "patch"}
	for i, version := range versions {
		if version == "" {
			return LocalizableError("%s is empty", names[i])
		}
		if len(version) > 1 && version[0] == '0' {
			return LocalizableError("%s starts with zero", names[i])
		}
		for _, ch := range version {
			if ch < '0' || ch > '9' {
				return LocalizableError("%s contains non-digit", names[i])
			}
		}
	}

	return nil
}
