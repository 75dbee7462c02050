package transport

import "bytes"

// answers reports whether data is the JSON-RPC response to the request whose id was
// written as id: a top-level object with an "id" member equal to id (as written, ignoring
// surrounding space) and a "result" or "error" member. It scans the top level only, without
// decoding values, so it stays cheap on large results; keys written with escapes are not
// recognised.
func answers(data, id []byte) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	got, isResponse := topLevelID(data)
	return isResponse && bytes.Equal(got, id)
}

// topLevelID finds the top-level "id" member of a JSON object and whether the object has a
// top-level "result" or "error" member.
func topLevelID(data []byte) (id []byte, isResponse bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return id, isResponse
		}
		end := skipString(data, i)
		if end < 0 {
			return id, isResponse
		}
		key := data[i+1 : end-1]
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return id, isResponse
		}
		i = skipSpace(data, i+1)
		end = skipValue(data, i)
		if end < 0 {
			return id, isResponse
		}
		switch string(key) {
		case "id":
			id = data[i:end]
		case "result", "error":
			isResponse = true
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ',' {
			return id, isResponse
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just after the string starting at b[i] (a quote), or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := skipString(b, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[j])) {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}
