package fault

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/protocol"
)

const (
	out = protocol.ClientToServer
	in  = protocol.ServerToClient
)

func engine(t *testing.T, seed uint64, rules ...string) *Engine {
	t.Helper()
	rs, err := ParseRules(rules, nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(rs, seed)
}

func call(id int, tool string) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, tool))
}

func result(id int) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[]}}`, id))
}

var progress = []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`)

// TestEngineActions: what each action does to the message it matches, and that the
// others pass untouched (the very bytes).
func TestEngineActions(t *testing.T) {
	now := time.Now()
	t.Run("error answers a request in the server's place", func(t *testing.T) {
		e := engine(t, 1, `error=-32603:"search is down" tool:=search`)
		v := e.Judge(out, call(1, "search"), now)
		if v.Applied == nil || len(v.Deliver) != 0 || !bytes.Equal(v.Answer, []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"search is down"}}`)) {
			t.Fatalf("verdict %+v, answer %s", v, v.Answer)
		}
		raw := call(2, "searcher")
		if v := e.Judge(out, raw, now); v.Applied != nil || len(v.Deliver) != 1 || &v.Deliver[0][0] != &raw[0] {
			t.Errorf("another tool's call is touched: %+v", v)
		}
	})
	t.Run("error replaces the response of a matching request", func(t *testing.T) {
		e := engine(t, 1, "error=-32001 tool:=search dir:in")
		e.Judge(out, call(4, "search"), now)
		v := e.Judge(in, result(4), now.Add(time.Second))
		if v.Applied == nil || len(v.Deliver) != 1 || !strings.Contains(string(v.Deliver[0]), `"code":-32001`) || !strings.Contains(string(v.Deliver[0]), `"id":4`) {
			t.Fatalf("%+v", v)
		}
		if v := e.Judge(in, progress, now); v.Applied != nil {
			t.Error("error acted on a notification")
		}
	})
	t.Run("drop, delay, throttle, disconnect", func(t *testing.T) {
		e := engine(t, 1, "drop method:=notifications/progress", "delay=250ms tool:=slow", "throttle=10/s tool:=trickle", "disconnect tool:=bye")
		if v := e.Judge(in, progress, now); v.Applied == nil || v.Applied.Action != Drop || len(v.Deliver) != 0 {
			t.Errorf("drop: %+v", v)
		}
		if v := e.Judge(out, call(1, "slow"), now); v.Wait != 250*time.Millisecond || len(v.Deliver) != 1 {
			t.Errorf("delay: %+v", v)
		}
		if v := e.Judge(out, call(2, "trickle"), now); v.Rate != 10 || rateWait(v) < 7*time.Second {
			t.Errorf("throttle: %+v (%s)", v, rateWait(v))
		}
		if v := e.Judge(out, call(3, "bye"), now); !v.Disconnect || len(v.Deliver) != 0 {
			t.Errorf("disconnect: %+v", v)
		}
	})
	t.Run("corrupt", func(t *testing.T) {
		raw := []byte(`{"jsonrpc": "2.0", "id": 12, "result": {}}`)
		want := map[string]string{
			Truncate:     `{"jsonrpc": "2.0", "i`,
			InvalidJSON:  `{"jsonrpc": "2.0", "id": 12, "result": {},}`,
			WrongID:      `{"jsonrpc": "2.0", "id": "mcpscope-wrong-id-12", "result": {}}`,
			WrongVersion: `{"jsonrpc": "1.0", "id": 12, "result": {}}`,
		}
		for kind, w := range want {
			v := engine(t, 1, "corrupt="+kind).Judge(in, raw, now)
			if len(v.Deliver) != 1 || string(v.Deliver[0]) != w {
				t.Errorf("%s: %q, want %q", kind, v.Deliver, w)
			}
		}
		v := engine(t, 1, "corrupt=duplicate").Judge(in, raw, now)
		if len(v.Deliver) != 2 || !bytes.Equal(v.Deliver[1], raw) {
			t.Errorf("duplicate: %q", v.Deliver)
		}
		if v := engine(t, 1, "corrupt=wrong-id").Judge(in, progress, now); v.Applied != nil {
			t.Error("wrong-id acted on a notification")
		}
		if p := protocol.Decode([]byte(want[WrongVersion])); len(p.Findings) == 0 {
			t.Error("the wrong version is not flagged by the decoder")
		}
	})
	t.Run("reorder holds until the next matching message", func(t *testing.T) {
		e := engine(t, 1, "reorder kind:notification")
		n1 := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"n":1}}`)
		n2 := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"n":2}}`)
		if v := e.Judge(in, n1, now); !v.Applied.Held || len(v.Deliver) != 0 {
			t.Fatalf("first: %+v", v)
		}
		if v := e.Judge(in, result(1), now); len(v.Deliver) != 1 || v.Applied != nil {
			t.Errorf("a message that does not match passes: %+v", v)
		}
		v := e.Judge(in, n2, now)
		if len(v.Deliver) != 2 || !bytes.Equal(v.Deliver[0], n2) || !bytes.Equal(v.Deliver[1], n1) {
			t.Errorf("second: %q", v.Deliver)
		}
		e.Judge(in, n1, now)
		if got := e.Release(in); len(got) != 1 || !bytes.Equal(got[0], n1) {
			t.Errorf("release: %q", got)
		}
	})
}

// TestEngineCounts: after= lets the first matches pass, times= stops after N faults.
func TestEngineCounts(t *testing.T) {
	e := engine(t, 1, "drop kind:notification after=2 times=3")
	var got []bool
	for range 7 {
		got = append(got, e.Judge(in, progress, time.Now()).Applied != nil)
	}
	if fmt.Sprint(got) != "[false false true true true false false]" {
		t.Errorf("applied %v", got)
	}
	if e.Applied() != 3 {
		t.Errorf("count %d", e.Applied())
	}
}

// TestEngineSeed: p= draws are the same for the same seed, and differ for another.
func TestEngineSeed(t *testing.T) {
	run := func(seed uint64) string {
		e := engine(t, seed, "drop kind:notification p=0.5")
		var b strings.Builder
		for range 64 {
			if e.Judge(in, progress, time.Now()).Applied != nil {
				b.WriteByte('x')
			} else {
				b.WriteByte('.')
			}
		}
		return b.String()
	}
	a, b, c := run(7), run(7), run(8)
	if a != b {
		t.Errorf("seed 7 twice:\n%s\n%s", a, b)
	}
	if a == c {
		t.Errorf("seeds 7 and 8 drew the same: %s", a)
	}
	if n := strings.Count(a, "x"); n < 16 || n > 48 {
		t.Errorf("p=0.5 dropped %d of 64", n)
	}
}

// TestEngineSeedOrder: a message's draw does not depend on the order messages arrive in.
func TestEngineSeedOrder(t *testing.T) {
	verdicts := func(ids []int) map[int]bool {
		e := engine(t, 9, "drop dir:in p=0.5")
		out := map[int]bool{}
		for _, id := range ids {
			out[id] = e.Judge(in, result(id), time.Now()).Applied != nil
		}
		return out
	}
	forward, backward := []int{}, []int{}
	for id := range 40 {
		forward = append(forward, id)
		backward = append([]int{id}, backward...)
	}
	a, b := verdicts(forward), verdicts(backward)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("the order changed the verdicts:\n%v\n%v", a, b)
	}
}

// TestEngineToolExactKey: a rule on a tool judges the tool the server runs. encoding/json
// would read {"name":"admin","Name":"report"} as "report"; the server reads "admin".
func TestEngineToolExactKey(t *testing.T) {
	e := engine(t, 1, `error=-32603:"blocked" tool:=admin`)
	raw := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"admin","Name":"report"}}`)
	if v := e.Judge(out, raw, time.Now()); v.Applied == nil || len(v.Deliver) != 0 {
		t.Errorf("a call of admin that also says Name:report evaded the rule on admin: %+v", v)
	}
	raw = []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"Name":"admin","name":"report"}}`)
	if v := e.Judge(out, raw, time.Now()); v.Applied != nil {
		t.Errorf("a call of report that also says Name:admin was judged as admin: %+v", v)
	}
}
