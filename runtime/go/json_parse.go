package bitwire

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxJSONDepth is the deepest nesting of arrays and objects ParseJSON accepts. Every
// value of every schema fits with room to spare (docs/json-mapping.md §6.5); deeper
// text is a JSONTooDeep error, found before the parser descends further, so hostile
// text cannot exhaust the stack.
const MaxJSONDepth = 512

// smallObject is the member count up to which duplicate names are found by a scan;
// larger objects use a map, so that checking stays linear.
const smallObject = 16

// ParseJSON parses JSON text into a tree of nil, bool, json.Number, string, []any
// and *JSONObject, by the rules of docs/json-mapping.md §6: exactly RFC 8259 (one
// value, surrounding whitespace allowed), UTF-8 only, no lone surrogate escapes, no
// member name twice in an object, at most MaxJSONDepth nested arrays and objects,
// no number beyond the binary64 range. Errors are *JSONError with the path of the
// value being read. Memory is linear in the length of the text.
func ParseJSON(text []byte) (any, error) {
	if !utf8.Valid(text) {
		return nil, jsonError(JSONInvalidUnicode, "the text is not UTF-8")
	}
	p := &jsonParser{text: text}
	p.skipWS()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipWS()
	if p.pos != len(text) {
		return nil, p.syntax("text after the JSON value")
	}
	return v, nil
}

type jsonParser struct {
	text []byte
	pos  int
}

func (p *jsonParser) peek() int {
	if p.pos < len(p.text) {
		return int(p.text[p.pos])
	}
	return -1
}

func (p *jsonParser) eat(c byte) bool {
	if p.pos < len(p.text) && p.text[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *jsonParser) skipWS() {
	for p.pos < len(p.text) {
		switch p.text[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) syntax(what string) error {
	return jsonError(JSONSyntax, what+" at byte "+strconv.Itoa(p.pos))
}

// value reads one value; depth is the number of arrays and objects around it.
func (p *jsonParser) value(depth int) (any, error) {
	c := p.peek()
	switch {
	case (c == '[' || c == '{') && depth >= MaxJSONDepth:
		return nil, jsonError(JSONTooDeep, "more than "+strconv.Itoa(MaxJSONDepth)+" nested arrays and objects")
	case c == '[':
		return p.array(depth + 1)
	case c == '{':
		return p.object(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c < 0:
		return nil, p.syntax("unexpected end of text")
	}
	return nil, p.syntax("expected a value")
}

func (p *jsonParser) literal(word string, v any) (any, error) {
	if len(p.text)-p.pos >= len(word) && string(p.text[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return v, nil
	}
	return nil, p.syntax("expected a value")
}

func (p *jsonParser) array(depth int) (any, error) {
	p.pos++
	p.skipWS()
	items := []any{}
	if p.eat(']') {
		return items, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, AtIndex(err, len(items))
		}
		items = append(items, v)
		p.skipWS()
		if p.eat(']') {
			return items, nil
		}
		if !p.eat(',') {
			return nil, p.syntax("expected , or ]")
		}
		p.skipWS()
	}
}

func (p *jsonParser) object(depth int) (any, error) {
	p.pos++
	p.skipWS()
	o := &JSONObject{}
	if p.eat('}') {
		return o, nil
	}
	var seen map[string]struct{}
	for {
		if p.peek() != '"' {
			return nil, p.syntax("expected a member name")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		if seen == nil && len(o.Keys) == smallObject {
			seen = make(map[string]struct{}, 2*smallObject)
			for _, k := range o.Keys {
				seen[k] = struct{}{}
			}
		}
		dup := false
		if seen != nil {
			_, dup = seen[key]
			seen[key] = struct{}{}
		} else {
			dup = indexOf(o.Keys, key) >= 0
		}
		if dup {
			return nil, InField(jsonError(JSONDuplicateKey, "member "+strconv.Quote(key)+" appears twice"), key)
		}
		p.skipWS()
		if !p.eat(':') {
			return nil, p.syntax("expected :")
		}
		p.skipWS()
		v, err := p.value(depth)
		if err != nil {
			return nil, InField(err, key)
		}
		o.Keys = append(o.Keys, key)
		o.Values = append(o.Values, v)
		p.skipWS()
		if p.eat('}') {
			return o, nil
		}
		if !p.eat(',') {
			return nil, p.syntax("expected , or }")
		}
		p.skipWS()
	}
}

// str reads a string (the opening quote is at pos).
func (p *jsonParser) str() (string, error) {
	p.pos++
	start := p.pos
	// The common case: no escapes, one copy.
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		if c == '"' {
			s := string(p.text[start:p.pos])
			p.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.pos++
	}
	// Unescaping never lengthens a string, so the rest of the literal bounds the
	// buffer: one allocation, linear in the text.
	end := p.pos
	for end < len(p.text) && p.text[end] != '"' {
		if p.text[end] == '\\' {
			end++
		}
		end++
	}
	buf := make([]byte, 0, min(end, len(p.text))-start)
	buf = append(buf, p.text[start:p.pos]...)
	for {
		if p.pos >= len(p.text) {
			return "", p.syntax("unterminated string")
		}
		c := p.text[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c == '\\':
			p.pos++
			var err error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
		case c < 0x20:
			return "", p.syntax("unescaped control character in a string")
		default:
			buf = append(buf, c)
			p.pos++
		}
	}
}

var simpleEscapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape appends the character of the escape after a backslash.
func (p *jsonParser) escape(buf []byte) ([]byte, error) {
	c := p.peek()
	if c < 0 {
		return nil, p.syntax("unterminated string")
	}
	if c != 'u' {
		if r := simpleEscapes[c]; r != 0 {
			p.pos++
			return append(buf, r), nil
		}
		return nil, p.syntax("invalid escape")
	}
	p.pos++
	unit, ok := p.hex4(p.pos)
	if !ok {
		return nil, p.syntax(`bad \u escape`)
	}
	p.pos += 4
	switch {
	case unit >= 0xD800 && unit <= 0xDBFF:
		low, ok := rune(0), false
		if p.pos+1 < len(p.text) && p.text[p.pos] == '\\' && p.text[p.pos+1] == 'u' {
			low, ok = p.hex4(p.pos + 2)
		}
		if !ok || low < 0xDC00 || low > 0xDFFF {
			return nil, jsonError(JSONInvalidUnicode, `lone high surrogate \u`+strconv.FormatInt(int64(unit), 16))
		}
		p.pos += 6
		return utf8.AppendRune(buf, utf16.DecodeRune(unit, low)), nil
	case unit >= 0xDC00 && unit <= 0xDFFF:
		return nil, jsonError(JSONInvalidUnicode, `lone low surrogate \u`+strconv.FormatInt(int64(unit), 16))
	}
	return utf8.AppendRune(buf, unit), nil
}

// hex4 reads four hex digits at byte at.
func (p *jsonParser) hex4(at int) (rune, bool) {
	if at+4 > len(p.text) {
		return 0, false
	}
	var v rune
	for _, c := range p.text[at : at+4] {
		d, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		v = v*16 + rune(d)
	}
	return v, true
}

func (p *jsonParser) number() (any, error) {
	start := p.pos
	p.eat('-')
	switch c := p.peek(); {
	case c == '0':
		p.pos++
	case c >= '1' && c <= '9':
		p.digits()
	default:
		return nil, p.syntax("expected a digit")
	}
	if p.eat('.') {
		if err := p.requiredDigits(); err != nil {
			return nil, err
		}
	}
	if p.eat('e') || p.eat('E') {
		if !p.eat('+') {
			p.eat('-')
		}
		if err := p.requiredDigits(); err != nil {
			return nil, err
		}
	}
	text := string(p.text[start:p.pos])
	if _, err := strconv.ParseFloat(text, 64); err != nil {
		// The grammar is checked, so the only failure is a value beyond binary64.
		shown := text
		if len(shown) > 40 {
			shown = shown[:40] + "…"
		}
		return nil, jsonError(JSONInvalidNumber, shown+" is beyond the binary64 range")
	}
	return json.Number(text), nil
}

func (p *jsonParser) digits() {
	for p.pos < len(p.text) && p.text[p.pos] >= '0' && p.text[p.pos] <= '9' {
		p.pos++
	}
}

func (p *jsonParser) requiredDigits() error {
	if c := p.peek(); c < '0' || c > '9' {
		return p.syntax("expected a digit")
	}
	p.digits()
	return nil
}
