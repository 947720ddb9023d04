package connectors

import (
	"bytes"
	"compress/bzip2"
	"compress/flate"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/hamba/avro/v2"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
)

// An Avro object container file (the Avro specification's "Object
// Container Files"): the magic "Obj" 1, a map of metadata (avro.schema,
// avro.codec), a 16-byte sync marker, then blocks of a count of objects,
// the byte size of the objects as the codec compressed them, the objects,
// and the sync marker again.

// avroMagic starts every object container file.
var avroMagic = [4]byte{'O', 'b', 'j', 1}

// avroSyncInterval is the size of a block's objects, before
// compression, at which the writer ends the block (Java's DataFileWriter
// default).
const avroSyncInterval = 64000

// The codecs of 'avro.codec' (the names the container's metadata holds).
const (
	avroNull      = "null"
	avroDeflate   = "deflate"
	avroSnappy    = "snappy"
	avroZstandard = "zstandard"
	avroBzip2     = "bzip2"
	avroXZ        = "xz"
)

// avroBlockDecoder returns the function that undoes codec on a block.
func avroBlockDecoder(codec string) (func([]byte) ([]byte, error), error) {
	switch codec {
	case "", avroNull:
		return func(b []byte) ([]byte, error) { return b, nil }, nil
	case avroDeflate:
		return func(b []byte) ([]byte, error) {
			r := flate.NewReader(bytes.NewReader(b))
			defer r.Close()
			return io.ReadAll(r)
		}, nil
	case avroSnappy:
		return decodeAvroSnappy, nil
	case avroBzip2:
		return func(b []byte) ([]byte, error) { return io.ReadAll(bzip2.NewReader(bytes.NewReader(b))) }, nil
	case avroZstandard:
		zr, err := zstd.NewReader(nil)
		if err != nil {
			return nil, err
		}
		return func(b []byte) ([]byte, error) { return zr.DecodeAll(b, nil) }, nil
	}
	return nil, fmt.Errorf("unsupported codec %q", codec)
}

// decodeAvroSnappy undoes the snappy codec: a snappy block followed by
// the big-endian CRC-32 of the uncompressed bytes.
func decodeAvroSnappy(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, errors.New("snappy block too short for its checksum")
	}
	out, err := snappy.Decode(nil, b[:len(b)-4])
	if err != nil {
		return nil, err
	}
	if crc32.ChecksumIEEE(out) != binary.BigEndian.Uint32(b[len(b)-4:]) {
		return nil, errors.New("snappy block checksum mismatch")
	}
	return out, nil
}

// avroContainer writes an object container file: objects already
// encoded in the file's schema go into blocks of about avroSyncInterval
// bytes, compressed by the codec.
type avroContainer struct {
	w      io.Writer
	codec  string
	sync   [16]byte
	block  bytes.Buffer // the objects of the open block
	count  int          // objects in block
	out    []byte       // a block as written
	flate  *flate.Writer
	zstd   *zstd.Encoder
	header bool // the header is written
	schema string
}

// newAvroContainer returns a writer of a container with the schema (its
// JSON text) and codec (null, deflate, snappy or zstandard).
func newAvroContainer(w io.Writer, schema, codec string) (*avroContainer, error) {
	c := &avroContainer{w: w, codec: codec, schema: schema}
	switch codec {
	case avroNull, avroDeflate, avroSnappy, avroZstandard:
	default:
		return nil, fmt.Errorf("unsupported codec %q", codec)
	}
	if _, err := rand.Read(c.sync[:]); err != nil {
		return nil, err
	}
	return c, nil
}

// writeHeader writes the magic, the metadata and the sync marker.
func (c *avroContainer) writeHeader() error {
	var b bytes.Buffer
	aw := avro.NewWriter(&b, 256)
	aw.Write(avroMagic[:])
	aw.WriteLong(2) // one block of two metadata entries
	aw.WriteString("avro.schema")
	aw.WriteBytes([]byte(c.schema))
	aw.WriteString("avro.codec")
	aw.WriteBytes([]byte(c.codec))
	aw.WriteLong(0)
	aw.Write(c.sync[:])
	if err := aw.Flush(); err != nil {
		return err
	}
	c.header = true
	_, err := c.w.Write(b.Bytes())
	return err
}

// Write adds one encoded object to the open block, ending the block when
// it is full.
func (c *avroContainer) Write(object []byte) error {
	c.block.Write(object)
	c.count++
	if c.block.Len() >= avroSyncInterval {
		return c.Flush()
	}
	return nil
}

// Flush writes the header when it is not yet written and the open block
// when it holds objects.
func (c *avroContainer) Flush() error {
	if !c.header {
		if err := c.writeHeader(); err != nil {
			return err
		}
	}
	if c.count == 0 {
		return nil
	}
	data, err := c.compress(c.block.Bytes())
	if err != nil {
		return err
	}
	c.out = c.out[:0]
	c.out = binary.AppendVarint(c.out, int64(c.count))
	c.out = binary.AppendVarint(c.out, int64(len(data)))
	c.out = append(c.out, data...)
	c.out = append(c.out, c.sync[:]...)
	c.block.Reset()
	c.count = 0
	_, err = c.w.Write(c.out)
	return err
}

// compress applies the codec to a block's objects.
func (c *avroContainer) compress(b []byte) ([]byte, error) {
	switch c.codec {
	case avroDeflate:
		var out bytes.Buffer
		if c.flate == nil {
			fw, err := flate.NewWriter(&out, flate.DefaultCompression)
			if err != nil {
				return nil, err
			}
			c.flate = fw
		} else {
			c.flate.Reset(&out)
		}
		if _, err := c.flate.Write(b); err != nil {
			return nil, err
		}
		if err := c.flate.Close(); err != nil {
			return nil, err
		}
		return out.Bytes(), nil
	case avroSnappy:
		out := snappy.Encode(nil, b)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(b)), nil
	case avroZstandard:
		if c.zstd == nil {
			zw, err := zstd.NewWriter(nil)
			if err != nil {
				return nil, err
			}
			c.zstd = zw
		}
		return c.zstd.EncodeAll(b, nil), nil
	}
	return b, nil
}
