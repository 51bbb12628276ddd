package bitwire

// MessageSet is the dispatch of a schema's messages by id (§4): Message returns the
// value a frame with PacketID id decodes into, or nil when the schema has no such
// message. Generated code provides two: the Messages type (one reusable value per
// message, so reading allocates nothing; a message read is valid until the next one)
// and NewMessage (a new value per frame), which MessageFunc turns into a set:
// bitwire.MessageFunc(game.NewMessage).
type MessageSet interface {
	Message(id uint32) Message
}

// MessageFunc adapts a function such as a generated NewMessage to a MessageSet.
type MessageFunc func(id uint32) Message

// Message returns f(id).
func (f MessageFunc) Message(id uint32) Message { return f(id) }

// limitDecoder and appender are the generated methods framing prefers to
// ReadPacked and WritePacked: they take the single-run fast paths (docs/go.md).
type limitDecoder interface {
	DecodeWithLimits(b []byte, limits Limits) error
}

type appender interface {
	AppendTo(dst []byte) ([]byte, error)
}

// DecodeFrameMessage decodes the message of frame f (§4): set's value for f.ID,
// decoded from the whole of f.Data with the decode budget limits (spec §11). An id
// set does not have is a *FrameError of kind FrameUnknownMessage; data that does not
// decode is one of kind FrameMessage, with the packed *Error inside (its bit offset
// counts from the start of Data).
func DecodeFrameMessage(f Frame, set MessageSet, limits Limits) (Message, error) {
	m := set.Message(f.ID)
	if m == nil {
		return nil, &FrameError{Kind: FrameUnknownMessage, Offset: f.Offset, MessageID: f.ID}
	}
	var err error
	if d, ok := m.(limitDecoder); ok {
		err = d.DecodeWithLimits(f.Data, limits)
	} else {
		err = DecodePackedWithLimits(f.Data, m, limits)
	}
	if err != nil {
		return nil, &FrameError{Kind: FrameMessage, Offset: f.Offset, MessageID: f.ID, Err: err}
	}
	return m, nil
}

// appendMessage appends m's top-level encoding to dst.
func appendMessage(dst []byte, m Message) ([]byte, error) {
	if a, ok := m.(appender); ok {
		return a.AppendTo(dst)
	}
	return AppendPacked(dst, m)
}
