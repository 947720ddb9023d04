package connectors

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding/rle"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// pqPages reads the pages of one column chunk straight from the file for
// a flat cursor: the chunk's bytes are read with one ReadAt into a buffer
// the cursor keeps from row group to row group, each page header is
// decoded in place and a page's body is decompressed into another kept
// buffer. parquet-go's page reader instead takes a fresh buffer from its
// pools for every page and decodes it into a Page of its own, whose
// allocations (a megabyte a page for DuckDB's row groups) and first
// touches cost about as much as decompressing. The values are decoded by
// parquet-go's encodings; only the page framing is read here.
type pqPages struct {
	ra    io.ReaderAt
	codec compress.Codec // nil: the pages are not compressed
	data  []byte         // the chunk's bytes
	pos   int            // offset in data of the next page header
	buf   []byte         // the decompressed body of the current page
	hdr   format.PageHeader
}

// directChunk reports whether a column chunk's pages can be read by
// pqPages: in the file itself, not encrypted, compressed by a codec
// parquet-go has, without the deprecated BIT_PACKED levels.
func directChunk(cc *format.ColumnChunk) bool {
	if cc.FilePath != "" || cc.CryptoMetadata.Value != nil || len(cc.EncryptedColumnMetadata) > 0 {
		return false
	}
	md := &cc.MetaData
	if md.TotalCompressedSize <= 0 || md.DataPageOffset <= 0 {
		return false
	}
	for _, e := range md.Encoding {
		if e == format.BitPacked {
			return false
		}
	}
	// LookupCompressionCodec names a codec it does not have UNSUPPORTED.
	return md.Codec == format.Uncompressed || parquet.LookupCompressionCodec(md.Codec).String() != "UNSUPPORTED"
}

// reset reads a column chunk's bytes.
func (p *pqPages) reset(ra io.ReaderAt, cc *format.ColumnChunk) error {
	md := &cc.MetaData
	start := md.DataPageOffset
	if d := md.DictionaryPageOffset; d > 0 && d < start {
		start = d
	}
	n := int(md.TotalCompressedSize)
	if cap(p.data) < n {
		p.data = make([]byte, grown(n))
	}
	p.data, p.pos, p.ra = p.data[:n], 0, ra
	p.codec = nil
	if md.Codec != format.Uncompressed {
		p.codec = parquet.LookupCompressionCodec(md.Codec)
	}
	if k, err := ra.ReadAt(p.data, start); k < n {
		return fmt.Errorf("reading column chunk at %d (%d bytes): %w", start, n, err)
	}
	return nil
}

// next decodes the next page header; its body (as stored: compressed) is
// returned. h is nil at the end of the chunk.
func (p *pqPages) next() (h *format.PageHeader, body []byte, err error) {
	if p.pos >= len(p.data) {
		return nil, nil, nil
	}
	r := (&thrift.CompactProtocol{}).NewReaderFromBytes(p.data[p.pos:])
	p.hdr = format.PageHeader{}
	if err := thrift.NewDecoder(r).Decode(&p.hdr); err != nil {
		return nil, nil, fmt.Errorf("decoding a page header: %w", err)
	}
	p.pos += r.BytesRead()
	size := int(p.hdr.CompressedPageSize)
	if size < 0 || size > len(p.data)-p.pos || p.hdr.UncompressedPageSize < 0 {
		return nil, nil, fmt.Errorf("a page of %d bytes overruns its column chunk: %w", size, parquet.ErrCorrupted)
	}
	body = p.data[p.pos : p.pos+size]
	p.pos += size
	if p.hdr.CRC != 0 && crc32.ChecksumIEEE(body) != uint32(p.hdr.CRC) {
		return nil, nil, fmt.Errorf("crc32 checksum mismatch in a page: %w", parquet.ErrCorrupted)
	}
	return &p.hdr, body, nil
}

// decompress returns the uncompressed bytes of a page body of size
// uncompressed bytes, in the kept buffer.
func (p *pqPages) decompress(body []byte, size int) ([]byte, error) {
	if p.codec == nil {
		return body, nil
	}
	if cap(p.buf) < size {
		p.buf = make([]byte, grown(size))
	}
	out, err := p.codec.Decode(p.buf[:cap(p.buf)], body)
	if err != nil {
		return nil, fmt.Errorf("decompressing a page: %w", err)
	}
	if cap(out) > cap(p.buf) {
		p.buf = out
	}
	return out, nil
}

// pqPage is a decoded data page's framing: its level and value bytes.
type pqPage struct {
	n      int             // levels (values, NULLs included)
	defs   []byte          // definition level bytes (RLE), nil for a REQUIRED column
	values []byte          // the encoded values
	enc    format.Encoding // their encoding
	// owned: values are in the decompression buffer (not the chunk's
	// bytes), which a vector may take (flatCursor.release).
	owned bool
}

// dataPage splits a data page (v1 or v2) into its parts, decompressing
// what is compressed.
func (p *pqPages) dataPage(h *format.PageHeader, body []byte, maxDef byte) (pqPage, error) {
	var pg pqPage
	switch h.Type {
	case format.DataPage:
		dh, ok := h.DataPageHeader.Get()
		if !ok {
			return pg, fmt.Errorf("a data page without its header: %w", parquet.ErrCorrupted)
		}
		data, err := p.decompress(body, int(h.UncompressedPageSize))
		if err != nil {
			return pg, err
		}
		pg.n, pg.enc = int(dh.NumValues), dh.Encoding
		if maxDef > 0 {
			if dh.DefinitionLevelEncoding != format.RLE {
				return pg, fmt.Errorf("definition levels encoded as %s", dh.DefinitionLevelEncoding)
			}
			if len(data) < 4 {
				return pg, fmt.Errorf("definition levels: %w", io.ErrUnexpectedEOF)
			}
			k := int(binary.LittleEndian.Uint32(data))
			if k > len(data)-4 {
				return pg, fmt.Errorf("definition levels: %w", io.ErrUnexpectedEOF)
			}
			pg.defs, data = data[4:4+k], data[4+k:]
		}
		pg.values, pg.owned = data, p.codec != nil
	case format.DataPageV2:
		dh, ok := h.DataPageHeaderV2.Get()
		if !ok {
			return pg, fmt.Errorf("a data page without its header: %w", parquet.ErrCorrupted)
		}
		rl, dl := int(dh.RepetitionLevelsByteLength), int(dh.DefinitionLevelsByteLength)
		if rl < 0 || dl < 0 || rl+dl > len(body) {
			return pg, fmt.Errorf("levels of %d bytes overrun their page: %w", rl+dl, parquet.ErrCorrupted)
		}
		pg.n, pg.enc = int(dh.NumValues), dh.Encoding
		if maxDef > 0 {
			pg.defs = body[rl : rl+dl]
		}
		data := body[rl+dl:]
		if c, set := dh.IsCompressed.Get(); !set || c {
			var err error
			if data, err = p.decompress(data, int(h.UncompressedPageSize)-rl-dl); err != nil {
				return pg, err
			}
			pg.owned = p.codec != nil
		}
		pg.values = data
	default:
		return pg, fmt.Errorf("a page of type %s is not a data page", h.Type)
	}
	if pg.n < 0 {
		return pg, fmt.Errorf("a page of %d values: %w", pg.n, parquet.ErrCorrupted)
	}
	return pg, nil
}

// decodeDefs decodes a page's definition levels (bit width 1: the
// cursor's columns are at most OPTIONAL) into buf; nil when every level
// is maxDef, as a leading run says for pages without NULLs.
func decodeDefs(buf, defs []byte, n int, maxDef byte) ([]byte, error) {
	if u, k := binary.Uvarint(defs); k > 0 && u&1 == 0 && int(u>>1) >= n && k < len(defs) && defs[k] == maxDef {
		return nil, nil
	}
	out, err := (&rle.Encoding{BitWidth: 1}).DecodeLevels(buf[:0], defs)
	if err != nil {
		return nil, err
	}
	if len(out) < n {
		return nil, fmt.Errorf("%d definition levels for %d values: %w", len(out), n, parquet.ErrCorrupted)
	}
	return out[:n], nil
}

// grown is the size of a kept buffer that must hold n: a little more, so
// that the slightly larger pages (or chunks) of the next row groups fit
// without a new one.
func grown(n int) int { return n + n/8 }

// reserve returns buf emptied, with room for n elements.
func reserve[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, 0, grown(n))
	}
	return buf[:0]
}
