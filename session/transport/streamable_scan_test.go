package transport

import "testing"

func TestAnswers(t *testing.T) {
	tests := []struct {
		data, id string
		want     bool
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, `1`, true},
		{`{"result":{"id":1},"jsonrpc":"2.0","id":2}`, `2`, true},
		{`{"result":{"id":1},"jsonrpc":"2.0","id":2}`, `1`, false},
		{` { "id" : "a\"b" , "error" : {"code":-1} } `, `"a\"b"`, true},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `1`, false},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"id":1,"result":2}}`, `1`, false},
		{`{"jsonrpc":"2.0","id":10,"result":[1,{"a":"}"}]}`, `10`, true},
		{`{"jsonrpc":"2.0","id":1,"result":`, `1`, false},
		{`[{"jsonrpc":"2.0","id":1,"result":{}}]`, `1`, false},
		{`not json`, `1`, false},
		{`{"id":1,"result":null}`, ``, false},
		{`{"id":1,"result":null}`, ` 1 `, true},
	}
	for _, tt := range tests {
		if got := answers([]byte(tt.data), []byte(tt.id)); got != tt.want {
			t.Errorf("answers(%s, %s) = %v, want %v", tt.data, tt.id, got, tt.want)
		}
	}
}
