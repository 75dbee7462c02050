package form

// What the form filled in, and what was entered: a value from a schema default or from
// the arguments sent last time is replaced by the first key typed on it; an optional
// object is sent only once something in it was entered.

// untouchedDefault reports whether f is a text field that still holds what the form filled
// in, the schema default or the argument sent last time: the user has not changed it, and
// typing replaces it. A value that came from elsewhere (JSON, $EDITOR, a draft left
// unsent, a recorded request) is not one, even when it equals the default.
func (f *field) untouchedDefault() bool {
	if !f.fromDflt && !f.fromLast || f.edited || f.raw != nil || f.null || !f.present {
		return false
	}
	switch f.s.Kind {
	case KindString, KindNumber, KindInteger, KindAny:
		return true
	}
	return false
}

// markDefault marks f and what it holds as filled in from a schema default (what the form
// cannot show is not a default it can replace).
func (f *field) markDefault() {
	f.fromDflt = f.raw == nil
	for _, k := range f.kids {
		k.markDefault()
	}
}

// markLast marks f and what it holds as the arguments sent last time.
func (f *field) markLast() {
	f.fromLast = f.raw == nil
	for _, k := range f.kids {
		k.markLast()
	}
}

// entered reports whether f holds something besides what the form filled in from the
// schema's defaults: a value the user gave (typed, toggled, chose, added) or one read from
// JSON. An optional object is sent only when it holds such a value: a default inside it
// does not create it.
func (f *field) entered() bool {
	for _, k := range f.kids { // members, items, the chosen alternative
		if k.member || k.s.Kind != KindConst && k.entered() {
			return true
		}
	}
	if len(f.extra) > 0 {
		return true
	}
	if f.fromDflt && !f.edited {
		return false
	}
	switch f.s.Kind {
	case KindObject, KindVariant:
		return f.raw != nil || f.null || f.present
	}
	return f.hasValue()
}
