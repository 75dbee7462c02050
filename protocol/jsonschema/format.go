package jsonschema

import (
	"net/netip"
	"strconv"
	"strings"
)

// Format defined specific format.
type Format struct {
	// Name of format.
	Name string

	// Validate checks if given value is of this format.
	Validate func(v any) error
}

var formats = map[string]*Format{
	"json-pointer":          {"json-pointer", validateJSONPointer},
	"relative-json-pointer": {"relative-json-pointer", validateRelativeJSONPointer},
	"uuid":                  {"uuid", validateUUID},
	"duration":              {"duration", validateDuration},
	"period":                {"period", validatePeriod},
	"ipv4":                  {"ipv4", validateIPV4},
	"ipv6":                  {"ipv6", validateIPV6},
	"hostname":              {"hostname", validateHostname},
	"email":                 {"email", validateEmail},
	"date":                  {"date", validateDate},
	"time":                  {"time", validateTime},
	"date-time":             {"date-time", validateDateTime},
	"uri":                   {"uri", validateURI},
	"iri":                   {"iri", validateURI},
	"uri-reference":         {"uri-reference", validateURIReference},
	"iri-reference":         {"iri-reference", validateURIReference},
	"uri-template":          {"uri-template", validateURITemplate},
	"semver":                {"semver", validateSemver},
}

// see https://www.rfc-editor.org/rfc/rfc6901#section-3
func validateJSONPointer(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if s == "" {
		return nil
	}
	if !strings.HasPrefix(s, "/") {
		return LocalizableError("not starting with /")
	}
	for _, tok := range strings.Split(s, "/")[1:] {
		escape := false
		for _, ch := range tok {
			if escape {
				escape = false
				if ch != '0' && ch != '1' {
					return LocalizableError("~ must be followed by 0 or 1")
				}
				continue
			}
			if ch == '~' {
				escape = true
				continue
			}
			switch {
			case ch >= '\x00' && ch <= '\x2E':
			case ch >= '\x30' && ch <= '\x7D':
			case ch >= '\x7F' && ch <= '\U0010FFFF':
			default:
				return LocalizableError("invalid character %q", ch)
			}
		}
		if escape {
			return LocalizableError("~ must be followed by 0 or 1")
		}
	}
	return nil
}

// see https://tools.ietf.org/html/draft-handrews-relative-json-pointer-01#section-3
func validateRelativeJSONPointer(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}

	// start with non-negative-integer
	numDigits := 0
	for _, ch := range s {
		if ch >= '0' && ch <= '9' {
			numDigits++
		} else {
			break
		}
	}
	if numDigits == 0 {
		return LocalizableError("must start with non-negative integer")
	}
	if numDigits > 1 && strings.HasPrefix(s, "0") {
		return LocalizableError("starts with zero")
	}
	s = s[numDigits:]

	// followed by either json-pointer or '#'
	if s == "#" {
		return nil
	}
	return validateJSONPointer(s)
}

// see https://datatracker.ietf.org/doc/html/rfc4122#page-4
func validateUUID(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}

	hexGroups := []int{8, 4, 4, 4, 12}
	groups := strings.Split(s, "-")
	if len(groups) != len(hexGroups) {
		return LocalizableError("must have %d elements", len(hexGroups))
	}
	for i, group := range groups {
		if len(group) != hexGroups[i] {
			return LocalizableError("element %d must be %d characters long", i+1, hexGroups[i])
		}
		for _, ch := range group {
			switch {
			case ch >= '0' && ch <= '9':
			case ch >= 'a' && ch <= 'f':
			case ch >= 'A' && ch <= 'F':
			default:
				return LocalizableError("non-hex character %q", ch)
			}
		}
	}
	return nil
}

// see https://datatracker.ietf.org/doc/html/rfc3339#appendix-A
func validateDuration(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}

	// must start with 'P'
	s, ok = strings.CutPrefix(s, "P")
	if !ok {
		return LocalizableError("must start with P")
	}
	if s == "" {
		return LocalizableError("nothing after P")
	}

	// dur-week
	if s, ok := strings.CutSuffix(s, "W"); ok {
		if s == "" {
			return LocalizableError("no number in week")
		}
		for _, ch := range s {
			if ch < '0' || ch > '9' {
				return LocalizableError("invalid week")
			}
		}
		return nil
	}

	allUnits := []string{"YMD", "HMS"}
	for i, s := range strings.Split(s, "T") {
		if i != 0 && s == "" {
			return LocalizableError("no time elements")
		}
		if i >= len(allUnits) {
			return LocalizableError("more than one T")
		}
		units := allUnits[i]
		for s != "" {
			digitCount := 0
			for _, ch := range s {
				if ch >= '0' && ch <= '9' {
					digitCount++
				} else {
					break
				}
			}
			if digitCount == 0 {
				return LocalizableError("missing number")
			}
			s = s[digitCount:]
			if s == "" {
				return LocalizableError("missing unit")
			}
			unit := s[0]
			j := strings.IndexByte(units, unit)
			if j == -1 {
				if strings.IndexByte(allUnits[i], unit) != -1 {
					return LocalizableError("unit %q out of order", unit)
				}
				return LocalizableError("invalid unit %q", unit)
			}
			units = units[j+1:]
			s = s[1:]
		}
	}

	return nil
}

func validateIPV4(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	groups := strings.Split(s, ".")
	if len(groups) != 4 {
		return LocalizableError("expected four decimals")
	}
	for _, group := range groups {
		if len(group) > 1 && group[0] == '0' {
			return LocalizableError("leading zeros")
		}
		n, err := strconv.Atoi(group)
		if err != nil {
			return err
		}
		if n < 0 || n > 255 {
			return LocalizableError("decimal must be between 0 and 255")
		}
	}
	return nil
}

func validateIPV6(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if !strings.Contains(s, ":") {
		return LocalizableError("missing colon")
	}
	addr, err := netip.ParseAddr(s)
	if err != nil {
		return err
	}
	if addr.Zone() != "" {
		return LocalizableError("zone id is not a part of ipv6 address")
	}
	return nil
}

// see https://en.wikipedia.org/wiki/Hostname#Restrictions_on_valid_host_names
func validateHostname(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}

	// entire hostname (including the delimiting dots but not a trailing dot) has a maximum of 253 ASCII characters
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return LocalizableError("more than 253 characters long")
	}

	// Hostnames are composed of series of labels concatenated with dots, as are all domain names
	for _, label := range strings.Split(s, ".") {
		// Each label must be from 1 to 63 characters long
		if len(label) < 1 || len(label) > 63 {
			return LocalizableError("label must be 1 to 63 characters long")
		}

		// labels must not start or end with a hyphen
		if strings.HasPrefix(label, "-") {
			return LocalizableError("label starts with hyphen")
		}
		if strings.HasSuffix(label, "-") {
			return LocalizableError("label ends with hyphen")
		}

		// labels may contain only the ASCII letters 'a' through 'z' (in a case-insensitive manner),
		// the digits '0' through '9', and the hyphen ('-')
		for _, ch := range label {
			switch {
			case ch >= 'a' && ch <= 'z':
			case ch >= 'A' && ch <= 'Z':
			case ch >= '0' && ch <= '9':
			case ch == '-':
			default:
				return LocalizableError("invalid character %q", ch)
			}
		}
	}
	return nil
}

// see https://en.wikipedia.org/wiki/Email_address
func validateEmail(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	// entire email address to be no more than 254 characters long
	if len(s) > 254 {
		return LocalizableError("more than 255 characters long")
	}

	// email address is generally recognized as having two parts joined with an at-sign
	at := strings.LastIndexByte(s, '@')
	if at == -1 {
		return LocalizableError("missing @")
	}
	local, domain := s[:at], s[at+1:]

	// local part may be up to 64 characters long
	if len(local) > 64 {
		return LocalizableError("local part more than 64 characters long")
	}

	if len(local) > 1 && strings.HasPrefix(local, `"`) && strings.HasPrefix(local, `"`) {
		// quoted
		local := local[1 : len(local)-1]
		if strings.IndexByte(local, '\\') != -1 || strings.IndexByte(local, '"') != -1 {
			return LocalizableError("backslash and quote are not allowed within quoted local part")
		}
	} else {
		// unquoted
		if strings.HasPrefix(local, ".") {
			return LocalizableError("starts with dot")
		}
		if strings.HasSuffix(local, ".") {
			return LocalizableError("ends with dot")
		}

		// consecutive dots not allowed
		if strings.Contains(local, "..") {
			return LocalizableError("consecutive dots")
		}

		// check allowed chars
		for _, ch := range local {
			switch {
			case ch >= 'a' && ch <= 'z':
			case ch >= 'A' && ch <= 'Z':
			case ch >= '0' && ch <= '9':
			case strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", ch):
			default:
				return LocalizableError("invalid character %q", ch)
			}
		}
	}

	// domain if enclosed in brackets, must match an IP address
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		domain = domain[1 : len(domain)-1]
		if rem, ok := strings.CutPrefix(domain, "IPv6:"); ok {
			if err := validateIPV6(rem); err != nil {
				return LocalizableError("invalid ipv6 address: %v", err)
			}
			return nil
		}
		if err := validateIPV4(domain); err != nil {
			return LocalizableError("invalid ipv4 address: %v", err)
		}
		return nil
	}

	// domain must match the requirements for a hostname
	if err := validateHostname(domain); err != nil {
		return LocalizableError("invalid domain: %v", err)
	}

	return nil
}
