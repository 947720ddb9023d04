package connectors

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"

	"eddy/engine/types"
)

// The raw format (Flink's RawFormatFactory): a message is the bytes of
// one value of the table's single column: a string in 'raw.charset', a
// byte string as it is, a number in its fixed-width binary form in
// 'raw.endianness' byte order (a BOOLEAN is one byte). A null message is
// NULL. With 'raw.line-delimiter' a message holds several values
// separated by the delimiter. A file holds a value per line ("\n"
// whatever 'raw.line-delimiter' says, as Flink's file source and sink
// read and write a deserialization format line by line), and a NULL
// cannot be written to one.

func rawFormat() *Format {
	return &Format{
		Identifier: "raw",
		Options:    []string{"raw.charset", "raw.endianness", "raw.line-delimiter"},
		Configure:  func(o map[string]string) (Codec, error) { return newRawOptions(o) },
	}
}

// byteOrder reads and appends fixed-width numbers.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

type rawOptions struct {
	charset   string
	enc       encoding.Encoding
	order     byteOrder
	delimiter *string
}

func newRawOptions(o map[string]string) (*rawOptions, error) {
	f := &rawOptions{charset: "UTF-8", enc: unicode.UTF8, order: binary.BigEndian}
	if cs, ok := o["raw.charset"]; ok {
		e, err := ianaindex.IANA.Encoding(cs)
		if err != nil || e == nil {
			return nil, validationError("Unsupported 'raw.charset' name: %s.", cs)
		}
		f.charset, f.enc = cs, e
	}
	if en, ok := o["raw.endianness"]; ok {
		switch strings.ToLower(en) {
		case "big-endian":
		case "little-endian":
			f.order = binary.LittleEndian
		default:
			return nil, validationError("Unsupported endianness name: %s. Valid values of 'raw.endianness' option are 'big-endian' and 'little-endian'.", en)
		}
	}
	if d, ok := o["raw.line-delimiter"]; ok {
		d = strings.NewReplacer(`\n`, "\n", `\r`, "\r", `\t`, "\t").Replace(d)
		f.delimiter = &d
	}
	return f, nil
}

// rawColumn returns the type of the single column the raw format takes,
// or Flink's error.
func rawColumn(cols []Column) (*types.Type, error) {
	if len(cols) != 1 {
		fs := make([]string, len(cols))
		for i, c := range cols {
			fs[i] = types.QuoteIdent(c.Name) + " " + c.Type.String()
		}
		return nil, validationError("The 'raw' format only supports single physical column. However the defined schema contains multiple physical columns: [%s]", strings.Join(fs, ", "))
	}
	t := cols[0].Type
	switch t.Kind {
	case types.Char, types.VarChar, types.Binary, types.VarBinary, types.Raw, types.Boolean,
		types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Float, types.Double:
		return t, nil
	}
	return nil, validationError("The 'raw' format doesn't supports '%s' as column type.", t)
}

// Decoder implements Codec: one value per line.
func (f *rawOptions) Decoder(r io.Reader, name string, cols []Column) RowDecoder {
	return f.splitter(r, name, cols, "\n")
}

func (f *rawOptions) splitter(r io.Reader, name string, cols []Column, delim string) *rawDecoder {
	t, err := rawColumn(cols)
	size := 64 << 10
	if br, ok := r.(*bytes.Reader); ok {
		size = max(16, int(br.Len()))
	}
	return &rawDecoder{f: f, t: t, err: err, name: name, r: bufio.NewReaderSize(r, size), delim: delim}
}

// DecodeMessage implements MessageDecoder: a message is one value, or the
// values 'raw.line-delimiter' separates.
func (f *rawOptions) DecodeMessage(msg []byte, cols []Column) ([][]any, []types.RowKind, error) {
	if f.delimiter != nil {
		return decodeAll(f.splitter(bytes.NewReader(msg), "message", cols, *f.delimiter), len(cols))
	}
	t, err := rawColumn(cols)
	if err != nil {
		return nil, nil, err
	}
	if msg == nil {
		return [][]any{{nil}}, []types.RowKind{types.Insert}, nil
	}
	v, err := f.decode(msg, t)
	if err != nil {
		return nil, nil, err
	}
	return [][]any{{v}}, []types.RowKind{types.Insert}, nil
}

func (f *rawOptions) decode(b []byte, t *types.Type) (any, error) {
	width := map[types.Kind]int{types.Boolean: 1, types.TinyInt: 1, types.SmallInt: 2, types.Int: 4,
		types.BigInt: 8, types.Float: 4, types.Double: 8}[t.Kind]
	if width > 0 && len(b) != width {
		return nil, &Error{Exception: "IOException", Msg: fmt.Sprintf(
			"Failed to deserialize message: a %s value takes %d bytes, the message has %d.", t, width, len(b))}
	}
	switch t.Kind {
	case types.Char, types.VarChar:
		s, err := f.enc.NewDecoder().Bytes(b)
		if err != nil {
			return nil, &Error{Exception: "IOException", Msg: fmt.Sprintf("Failed to deserialize message in charset %s: %v", f.charset, err)}
		}
		return string(s), nil
	case types.Binary, types.VarBinary, types.Raw:
		return append([]byte{}, b...), nil
	case types.Boolean:
		return b[0] != 0, nil
	case types.TinyInt:
		return int8(b[0]), nil
	case types.SmallInt:
		return int16(f.order.Uint16(b)), nil
	case types.Int:
		return int32(f.order.Uint32(b)), nil
	case types.BigInt:
		return int64(f.order.Uint64(b)), nil
	case types.Float:
		return math.Float32frombits(f.order.Uint32(b)), nil
	}
	return math.Float64frombits(f.order.Uint64(b)), nil
}

func (f *rawOptions) encode(v any, t *types.Type) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return f.enc.NewEncoder().Bytes([]byte(x))
	case []byte:
		return x, nil
	case bool:
		if x {
			return []byte{1}, nil
		}
		return []byte{0}, nil
	case int8:
		return []byte{byte(x)}, nil
	case int16:
		return f.order.AppendUint16(nil, uint16(x)), nil
	case int32:
		return f.order.AppendUint32(nil, uint32(x)), nil
	case int64:
		return f.order.AppendUint64(nil, uint64(x)), nil
	case float32:
		return f.order.AppendUint32(nil, math.Float32bits(x)), nil
	case float64:
		return f.order.AppendUint64(nil, math.Float64bits(x)), nil
	}
	return nil, fmt.Errorf("the raw format cannot write %T as %s", v, t)
}

type rawDecoder struct {
	f     *rawOptions
	t     *types.Type
	err   error
	name  string
	r     *bufio.Reader
	delim string
	eof   bool
}

// Next implements RowDecoder.
func (d *rawDecoder) Next(row []any) (types.RowKind, bool, error) {
	if d.err != nil {
		return types.Insert, false, d.err
	}
	if d.eof {
		return types.Insert, false, nil
	}
	var line []byte
	last := d.delim[len(d.delim)-1]
	for {
		chunk, err := d.r.ReadBytes(last)
		line = append(line, chunk...)
		if err == io.EOF {
			d.eof = true
			if len(line) == 0 {
				return types.Insert, false, nil
			}
			break
		}
		if err != nil {
			return types.Insert, false, err
		}
		if bytes.HasSuffix(line, []byte(d.delim)) {
			line = line[:len(line)-len(d.delim)]
			break
		}
	}
	v, err := d.f.decode(line, d.t)
	if err != nil {
		return types.Insert, false, err
	}
	row[0] = v
	return types.Insert, true, nil
}

// Encoder implements Codec: each value followed by "\n".
func (f *rawOptions) Encoder(w io.Writer, cols []Column) RowEncoder {
	t, err := rawColumn(cols)
	return &rawEncoder{f: f, t: t, err: err, w: bufio.NewWriterSize(w, 64<<10), delim: "\n"}
}

// EncodeMessage implements MessageEncoder: the value's bytes alone.
func (f *rawOptions) EncodeMessage(_ types.RowKind, row []any, cols []Column) ([]byte, error) {
	t, err := rawColumn(cols)
	if err != nil {
		return nil, err
	}
	return f.encode(row[0], t)
}

type rawEncoder struct {
	f     *rawOptions
	t     *types.Type
	err   error
	w     *bufio.Writer
	delim string
}

// Write implements RowEncoder.
func (e *rawEncoder) Write(_ types.RowKind, row []any) error {
	if e.err != nil {
		return e.err
	}
	if row[0] == nil {
		return &Error{Exception: "IOException", Msg: "The 'raw' format cannot write a NULL value to a file, which holds one value per line."}
	}
	b, err := e.f.encode(row[0], e.t)
	if err != nil {
		return err
	}
	if _, err := e.w.Write(b); err != nil {
		return err
	}
	_, err = e.w.WriteString(e.delim)
	return err
}

// Flush implements RowEncoder.
func (e *rawEncoder) Flush() error { return e.w.Flush() }
