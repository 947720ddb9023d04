package connectors

import "bytes"

// streamBufferSize is the buffer of a decoder or encoder of a file.
const streamBufferSize = 64 << 10

// bufferSize is the buffer size of a decoder reading r or an encoder
// writing w: a file's streamBufferSize, or just enough for one message
// (DecodeBytes and EncodeBytes, called once per record of a message
// queue, would otherwise allocate and clear 64 KiB per record).
func bufferSize(rw any) int {
	switch x := rw.(type) {
	case *bytes.Reader:
		return max(int(x.Size())+1, 512)
	case *bytes.Buffer:
		return 512
	}
	return streamBufferSize
}
