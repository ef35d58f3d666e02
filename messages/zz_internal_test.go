package messages

import (
	"bufio"
	"bytes"
	"slices"
	"time"
	"encoding/json"
	"testing"

	sse "github.com/tmaxmax/go-sse"

	"github.com/agentplatform/agentplatform-go/internal/stream"
)

func BenchmarkZParts(b *testing.B) {
	body, _ := recordedStream(5000)
	b.Run("sse-nil", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for ev := range sse.Read(bytes.NewReader(body), nil) {
				decoded = ev.Data
			}
		}
	})
	b.Run("sse-32m", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for ev := range sse.Read(bytes.NewReader(body), &sse.ReadConfig{MaxEventSize: 32 << 20}) {
				decoded = ev.Data
			}
		}
	})
	b.Run("read-nodecode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for ev := range stream.Read(bytes.NewReader(body), stream.DefaultMaxEventSize, createSource, func(typ string, data []byte) (int, error) { return len(data), nil }) {
				decoded = ev
			}
		}
	})
	b.Run("read-decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for ev := range stream.Read(bytes.NewReader(body), stream.DefaultMaxEventSize, createSource, decodeEvent) {
				decoded = ev
			}
		}
	})
}

func BenchmarkZDelta(b *testing.B) {
	data := []byte(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" forecast"}}`)
	b.ReportAllocs()
	for b.Loop() {
		decoded, _ = decodeEvent("content_block_delta", data)
	}
}

func BenchmarkZDeltaV1(b *testing.B) {
	data := []byte(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":" forecast"}}`)
	b.ReportAllocs()
	for b.Loop() {
		var e plainEvent
		_ = json.Unmarshal(data, &e)
		decoded = &e
	}
}

func TestZInterleaved(t *testing.T) {
	body, _ := recordedStream(5000)
	base := func() {
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(make([]byte, 0, 64<<10), 32<<20)
		for sc.Scan() {
			data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
			if !ok {
				continue
			}
			var e plainEvent
			_ = json.Unmarshal(data, &e)
			decoded = &e
		}
	}
	sdk := func() {
		for ev := range stream.Read(bytes.NewReader(body), stream.DefaultMaxEventSize, createSource, decodeEvent) {
			decoded = ev
		}
	}
	var tb, ts []time.Duration
	for range 40 {
		s := time.Now()
		base()
		tb = append(tb, time.Since(s))
		s = time.Now()
		sdk()
		ts = append(ts, time.Since(s))
	}
	slices.Sort(tb)
	slices.Sort(ts)
	t.Logf("median base %v sdk %v ratio(base/sdk) %.2f; min base %v sdk %v", tb[20], ts[20], float64(tb[20])/float64(ts[20]), tb[0], ts[0])
}
