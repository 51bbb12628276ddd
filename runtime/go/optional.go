package bitwire

// Optional is the Go form of a schema optional<T> (§5.3): Value is meaningful only
// when Set is true. It is a plain value — no pointer, no allocation — so messages
// with optional fields decode without allocating. The zero value is absent.
type Optional[T any] struct {
	// Set reports whether the value is present (the presence bit).
	Set bool
	// Value is the present value; decoders leave it zero when Set is false.
	Value T
}

// Some returns a present optional holding v.
func Some[T any](v T) Optional[T] {
	return Optional[T]{Set: true, Value: v}
}

// Get returns the value and whether it is present.
func (o Optional[T]) Get() (T, bool) {
	return o.Value, o.Set
}
