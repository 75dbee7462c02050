package export

import (
	"bufio"
	"encoding/json"
	"io"
)

// NDJSON writes the events of src to w, one JSON object a line: each event as the
// recording holds it (the members --trace prints, with mono_ns, gen, exchange and
// sse_event), masked. The recording's header is not written.
func NDJSON(w io.Writer, src *Source) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	if err := src.Each(func(e *Event) error { return enc.Encode(e) }); err != nil {
		return err
	}
	return bw.Flush()
}
