package apphost

// FromView hands raw to the host as if the page had relayed it, for tests that judge a
// view's request without a browser.
func (h *Host) FromView(raw []byte) { h.fromView(raw) }
