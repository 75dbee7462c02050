package explorer

// genSeq names an event across restarts: its session (generation) and its Seq.
type genSeq struct {
	gen int
	seq uint64
}
