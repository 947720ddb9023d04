package connectors

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"eddy/engine/types"
	"eddy/engine/vector"
)

// Format is a row format by identifier (the 'format' option: 'csv',
// 'json'), shared by the connectors that carry bytes, as Flink's
// DeserializationFormatFactory and SerializationFormatFactory are.
// Adding a format is one Format value and one Registry.RegisterFormat.
type Format struct {
	Identifier string
	// Options are the option keys the format consumes, as they are
	// written in a table's options ('csv.field-delimiter').
	Options []string
	// Configure reads the format's options from a table's options (after
	// the connector checked that no other key is present) and returns
	// the configured codec, or Flink's ValidationException.
	Configure func(options map[string]string) (Codec, error)
}

// Codec reads and writes the rows of one configured format. cols are the
// fields of a record, in order; name names the input in errors.
type Codec interface {
	Decoder(r io.Reader, name string, cols []Column) RowDecoder
	Encoder(w io.Writer, cols []Column) RowEncoder
}

// BulkCodec is implemented by codecs that read a whole input into column
// vectors faster than row by row (Flink's BulkFormat). ReadBulk returns
// NewBulkReader over Decoder for inputs it has no fast path for.
type BulkCodec interface {
	Codec
	// ReadBulk reads r; needed[j] false lets the reader skip field j
	// (nil: every field is read).
	ReadBulk(r io.Reader, name string, cols []Column, needed []bool) BulkReader
}

// RowDecoder reads records one by one.
type RowDecoder interface {
	// Next fills row (one value per field) with the next record and
	// returns its row kind; ok is false at the end of the input.
	Next(row []any) (kind types.RowKind, ok bool, err error)
}

// RowEncoder writes records one by one.
type RowEncoder interface {
	Write(kind types.RowKind, row []any) error
	// Flush writes what is buffered.
	Flush() error
}

// BulkReader reads an input of insert rows into column vectors.
type BulkReader interface {
	// Read appends at most n records to cols (one vector per field, nil
	// for a field not read) and returns how many it appended and whether
	// the input ended.
	Read(cols []*vector.Vec, n int) (int, bool, error)
}

// OpenBulk returns a bulk reader of r in codec's format: its fast path
// when it has one, else its row decoder (a ChangelogBulkReader for a
// ChangelogCodec).
func OpenBulk(c Codec, r io.Reader, name string, cols []Column, needed []bool) BulkReader {
	if bc, ok := c.(BulkCodec); ok {
		return bc.ReadBulk(r, name, cols, needed)
	}
	if CodecChangelog(c) != InsertOnly {
		return newChangelogBulkReader(c.Decoder(r, name, cols), len(cols))
	}
	return NewBulkReader(c.Decoder(r, name, cols), len(cols))
}

// NewBulkReader reads a row decoder's records of width fields into
// vectors. The records must be inserts.
func NewBulkReader(dec RowDecoder, width int) BulkReader {
	return &rowBulkReader{dec: dec, row: make([]any, width)}
}

type rowBulkReader struct {
	dec RowDecoder
	row []any
}

func (r *rowBulkReader) Read(cols []*vector.Vec, n int) (int, bool, error) {
	added := 0
	for added < n {
		kind, ok, err := r.dec.Next(r.row)
		if err != nil {
			return added, false, err
		}
		if !ok {
			return added, true, nil
		}
		if kind != types.Insert {
			return added, false, fmt.Errorf("a bulk read takes insert rows only, the format produced a %s row", kind)
		}
		for j, col := range cols {
			if col != nil {
				col.Append(r.row[j])
			}
		}
		added++
	}
	return added, false, nil
}

// MessageDecoder is implemented by codecs that read a message otherwise
// than a file of the same bytes (the raw format: a file is a value per
// line, a message one value); DecodeBytes uses it.
type MessageDecoder interface {
	DecodeMessage(msg []byte, cols []Column) (rows [][]any, kinds []types.RowKind, err error)
}

// MessageEncoder is implemented by codecs that write a message otherwise
// than a file of one row; EncodeBytes uses it.
type MessageEncoder interface {
	EncodeMessage(kind types.RowKind, row []any, cols []Column) ([]byte, error)
}

// DecodeBytes decodes one message (a record of a message queue, say) in
// codec's format into its rows, with their row kinds.
func DecodeBytes(c Codec, msg []byte, cols []Column) (rows [][]any, kinds []types.RowKind, err error) {
	if md, ok := c.(MessageDecoder); ok {
		return md.DecodeMessage(msg, cols)
	}
	return decodeAll(c.Decoder(bytes.NewReader(msg), "message", cols), len(cols))
}

// MessageReader decodes messages of one column layout: DecodeBytes for a
// stream of messages, keeping what decoding each of them shares.
type MessageReader interface {
	// Decode returns the rows of one message with their row kinds. They
	// are valid until the next call.
	Decode(msg []byte) (rows [][]any, kinds []types.RowKind, err error)
}

// MessageAppender is a MessageReader that can also append the rows of a
// message straight into column vectors, without an engine value per
// field: the readers of insert-only formats (json).
type MessageAppender interface {
	MessageReader
	// Append decodes msg and appends its rows, all inserts, to vecs (one
	// per column of the reader's layout, of the columns' types), and
	// returns how many it appended. On an error vecs are unchanged.
	Append(msg []byte, vecs []*vector.Vec) (int, error)
}

// messageReaderMaker is implemented by codecs with a MessageReader of
// their own.
type messageReaderMaker interface {
	messageReader(cols []Column) MessageReader
}

// NewMessageReader returns the reader of messages in codec's format whose
// fields are cols.
func NewMessageReader(c Codec, cols []Column) MessageReader {
	if m, ok := c.(messageReaderMaker); ok {
		return m.messageReader(cols)
	}
	return bytesReader{c: c, cols: cols}
}

// bytesReader is the MessageReader of a codec without one: DecodeBytes.
type bytesReader struct {
	c    Codec
	cols []Column
}

func (r bytesReader) Decode(msg []byte) ([][]any, []types.RowKind, error) {
	return DecodeBytes(r.c, msg, r.cols)
}

// decodeAll reads every row of a decoder of width fields.
func decodeAll(dec RowDecoder, width int) (rows [][]any, kinds []types.RowKind, err error) {
	for {
		row := make([]any, width)
		kind, ok, err := dec.Next(row)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return rows, kinds, nil
		}
		rows, kinds = append(rows, row), append(kinds, kind)
	}
}

// EncodeBytes encodes one row in codec's format as a message.
func EncodeBytes(c Codec, kind types.RowKind, row []any, cols []Column) ([]byte, error) {
	if me, ok := c.(MessageEncoder); ok {
		return me.EncodeMessage(kind, row, cols)
	}
	var b bytes.Buffer
	enc := c.Encoder(&b, cols)
	if err := enc.Write(kind, row); err != nil {
		return nil, err
	}
	if err := enc.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// configureFormat returns the codec of a table's 'format' option, or
// Flink's error naming the registered formats.
func (r *Registry) configureFormat(options map[string]string) (Codec, error) {
	f, ok := r.formats[options["format"]]
	if !ok {
		return nil, r.unknownFormat(options["format"])
	}
	return f.Configure(options)
}

func (r *Registry) unknownFormat(id string) error {
	return validationError("Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.DeserializationFormatFactory' in the classpath.\n\nAvailable factory identifiers are:\n\n%s",
		id, strings.Join(r.FormatIdentifiers(), "\n"))
}

// FilterBulkCodec is implemented by bulk codecs whose files carry
// statistics (Parquet's row groups and pages): filters over cols let the
// reader skip the parts of a file where no row can pass them. The reader
// applies the filters TakesFilter accepts to the rows it returns, and
// reads their columns whether needed or not; the caller applies the
// others.
type FilterBulkCodec interface {
	ReadBulkFiltered(r io.Reader, name string, cols []Column, needed []bool, filters []RowFilter) BulkReader
	// TakesFilter reports whether the reader applies f, a filter on col,
	// exactly.
	TakesFilter(col Column, f RowFilter) bool
}
