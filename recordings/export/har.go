package export

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"encoding/base64"
)

// HAR is a HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/).
type HAR struct {
	Log HARLog `json:"log"`
}

// HARLog is the log object of a HAR document.
type HARLog struct {
	Version string      `json:"version"`
	Creator HARCreator  `json:"creator"`
	Pages   []HARPage   `json:"pages"`
	Entries []*HAREntry `json:"entries"`
	Comment string      `json:"comment,omitempty"`
	// Faults are the faults fault rules applied (mcpscope's own field).
	Faults []HARFault `json:"_faults,omitempty"`
}

// HARCreator names the application that made the log.
type HARCreator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HARPage is one page: one session of the recording.
type HARPage struct {
	StartedDateTime string         `json:"startedDateTime"`
	ID              string         `json:"id"`
	Title           string         `json:"title"`
	PageTimings     HARPageTimings `json:"pageTimings"`
}

// HARPageTimings are a page's load timings: unknown (-1) for an MCP session.
type HARPageTimings struct {
	OnContentLoad float64 `json:"onContentLoad"`
	OnLoad        float64 `json:"onLoad"`
}

// HAREntry is one exchange: an HTTP request and its response, or, for frames that did
// not travel on an HTTP exchange, a request frame and its answer under a pseudo URL.
type HAREntry struct {
	PageRef         string      `json:"pageref,omitempty"`
	StartedDateTime string      `json:"startedDateTime"`
	Time            float64     `json:"time"`
	Request         HARRequest  `json:"request"`
	Response        HARResponse `json:"response"`
	Cache           struct{}    `json:"cache"`
	Timings         HARTimings  `json:"timings"`
	Comment         string      `json:"comment,omitempty"`
	// Error is why the request failed (no response), as browsers write it.
	Error string `json:"_error,omitempty"`
	// Fault is what a fault rule did to the request or its answer (mcpscope's own field).
	Fault string `json:"_fault,omitempty"`

	started time.Time
}

// HARRequest is an entry's request.
type HARRequest struct {
	Method      string         `json:"method"`
	URL         string         `json:"url"`
	HTTPVersion string         `json:"httpVersion"`
	Cookies     []HARNameValue `json:"cookies"`
	Headers     []HARNameValue `json:"headers"`
	QueryString []HARNameValue `json:"queryString"`
	PostData    *HARPostData   `json:"postData,omitempty"`
	HeadersSize int64          `json:"headersSize"`
	BodySize    int64          `json:"bodySize"`
}

// HARResponse is an entry's response.
type HARResponse struct {
	Status      int            `json:"status"`
	StatusText  string         `json:"statusText"`
	HTTPVersion string         `json:"httpVersion"`
	Cookies     []HARNameValue `json:"cookies"`
	Headers     []HARNameValue `json:"headers"`
	Content     HARContent     `json:"content"`
	RedirectURL string         `json:"redirectURL"`
	HeadersSize int64          `json:"headersSize"`
	BodySize    int64          `json:"bodySize"`
}

// HARNameValue is a header, cookie or query parameter.
type HARNameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// HARPostData is a request body.
type HARPostData struct {
	MimeType string `json:"mimeType"`
	Text     string `json:"text"`
	// Encoding is "base64" when Text holds bytes that are not UTF-8 (a HAR 1.3 field
	// that viewers of 1.2 read as well; the content object has it in 1.2).
	Encoding string `json:"_encoding,omitempty"`
}

// HARContent is a response body.
type HARContent struct {
	Size     int64  `json:"size"`
	MimeType string `json:"mimeType"`
	Text     string `json:"text,omitempty"`
	Encoding string `json:"encoding,omitempty"`
}

// HARTimings are an entry's timings in milliseconds; -1 where not known.
type HARTimings struct {
	Blocked float64 `json:"blocked"`
	DNS     float64 `json:"dns"`
	Connect float64 `json:"connect"`
	Send    float64 `json:"send"`
	Wait    float64 `json:"wait"`
	Receive float64 `json:"receive"`
	SSL     float64 `json:"ssl"`
}

// WriteHAR writes src as a HAR 1.2 document to w.
func WriteHAR(w io.Writer, src *Source, creatorVersion string) error {
	h, err := BuildHAR(src, creatorVersion)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(h)
}

// harTime formats a time as HAR wants it (ISO 8601 with milliseconds and zone).
func harTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// ms is a duration in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// harHeaders lists a header's values, names sorted.
func harHeaders(h http.Header) []HARNameValue {
	out := []HARNameValue{}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		for _, v := range h[k] {
			out = append(out, HARNameValue{Name: k, Value: v})
		}
	}
	return out
}

// harQuery lists the query parameters of a URL.
func harQuery(raw string) []HARNameValue {
	out := []HARNameValue{}
	u, err := url.Parse(raw)
	if err != nil {
		return out
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		if uk, err := url.QueryUnescape(k); err == nil {
			k = uk
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		out = append(out, HARNameValue{Name: k, Value: v})
	}
	return out
}

// bodyText is a body as HAR text: itself when it is UTF-8, else base64 with its encoding.
func bodyText(b []byte) (text, encoding string) {
	if utf8.Valid(b) {
		return string(b), ""
	}
	return base64.StdEncoding.EncodeToString(b), "base64"
}
