package jsonschema

import (
	"strconv"
	"strings"
	"time"
)

// see see https://datatracker.ietf.org/doc/html/rfc3339#section-5.6
func validateDate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	_, err := time.Parse("2006-01-02", s)
	return err
}

// see https://datatracker.ietf.org/doc/html/rfc3339#section-5.6
// NOTE: golang time package does not support leap seconds.
func validateTime(v any) error {
	str, ok := v.(string)
	if !ok {
		return nil
	}

	// min: hh:mm:ssZ
	if len(str) < 9 {
		return LocalizableError("less than 9 characters long")
	}
	if str[2] != ':' || str[5] != ':' {
		return LocalizableError("missing colon in correct place")
	}

	// parse hh:mm:ss
	var hms []int
	for _, tok := range strings.SplitN(str[:8], ":", 3) {
		i, err := strconv.Atoi(tok)
		if err != nil {
			return LocalizableError("invalid hour/min/sec")
		}
		if i < 0 {
			return LocalizableError("non-positive hour/min/sec")
		}
		hms = append(hms, i)
	}
	if len(hms) != 3 {
		return LocalizableError("missing hour/min/sec")
	}
	h, m, s := hms[0], hms[1], hms[2]
	if h > 23 || m > 59 || s > 60 {
		return LocalizableError("hour/min/sec out of range")
	}
	str = str[8:]

	// parse sec-frac if present
	if rem, ok := strings.CutPrefix(str, "."); ok {
		numDigits := 0
		for _, ch := range rem {
			if ch >= '0' && ch <= '9' {
				numDigits++
			} else {
				break
			}
		}
		if numDigits == 0 {
			return LocalizableError("no digits in second fraction")
		}
		str = rem[numDigits:]
	}

	if str != "z" && str != "Z" {
		// parse time-numoffset
		if len(str) != 6 {
			return LocalizableError("offset must be 6 characters long")
		}
		var sign int
		switch str[0] {
		case '+':
			sign = -1
		case '-':
			sign = +1
		default:
			return LocalizableError("offset must begin with plus/minus")
		}
		str = str[1:]
		if str[2] != ':' {
			return LocalizableError("missing colon in offset in correct place")
		}

		var zhm []int
		for _, tok := range strings.SplitN(str, ":", 2) {
			i, err := strconv.Atoi(tok)
			if err != nil {
				return LocalizableError("invalid hour/min in offset")
			}
			if i < 0 {
				return LocalizableError("non-positive hour/min in offset")
			}
			zhm = append(zhm, i)
		}
		zh, zm := zhm[0], zhm[1]
		if zh > 23 || zm > 59 {
			return LocalizableError("hour/min in offset out of range")
		}

		// apply timezone
		hm := (h*60 + m) + sign*(zh*60+zm)
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}

	// check leap second
	if s >= 60 && (h != 23 || m != 59) {
		return LocalizableError("invalid leap second")
	}

	return nil
}

// see https://datatracker.ietf.org/doc/html/rfc3339#section-5.6
func validateDateTime(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}

	// min: yyyy-mm-ddThh:mm:ssZ
	if len(s) < 20 {
		return LocalizableError("less than 20 characters long")
	}

	if s[10] != 't' && s[10] != 'T' {
		return LocalizableError("11th character must be t or T")
	}
	if err := validateDate(s[:10]); err != nil {
		return LocalizableError("invalid date element: %v", err)
	}
	if err := validateTime(s[11:]); err != nil {
		return LocalizableError("invalid time element: %v", err)
	}
	return nil
}
