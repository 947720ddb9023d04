package gcpace

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	p := New(32 << 20)
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 800},         // the floor from an empty heap: 4 MB * 8
		{1 << 20, 800},   // capped where the minimum heap reaches the floor
		{8 << 20, 300},   // 8 MB * 4 = 32 MB
		{12 << 20, 166},  // 12 MB * 2.66 = 32 MB
		{16 << 20, 100},  // twice the live heap is the floor
		{100 << 20, 100}, // the runtime's own pace
	} {
		if got := p.percentFor(c.live); got != c.want {
			t.Errorf("percentFor(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
	if got := New(1).percentFor(0); got != 100 {
		t.Errorf("a floor below the runtime's minimum heap: percent %d, want 100", got)
	}
}

// waitPercent runs collections until the pacer has set want.
func waitPercent(t *testing.T, p *Pacer, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for p.Percent() != want {
		if time.Now().After(deadline) {
			t.Fatalf("percent %d after collections, want %d", p.Percent(), want)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// TestFollowsLiveHeap runs real collections: the pace is the floor's
// while little is live, the runtime's own while a large heap is live, and
// Stop gives back the percentage from before Start.
func TestFollowsLiveHeap(t *testing.T) {
	prior := debug.SetGCPercent(150)
	defer debug.SetGCPercent(prior)
	p := New(32 << 20)
	p.Start()
	if p.Percent() != 800 {
		t.Fatalf("percent after Start = %d, want 800", p.Percent())
	}
	big := make([][]byte, 64)
	for i := range big {
		big[i] = make([]byte, 1<<20)
		big[i][0] = 1
	}
	waitPercent(t, p, 100)
	runtime.KeepAlive(big)
	big = nil
	waitPercent(t, p, 800)
	p.Stop()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("percent after Stop = %d, want the 150 from before Start", got)
	}
	// A collection after Stop changes nothing.
	runtime.GC()
	runtime.GC()
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("percent after Stop and a collection = %d, want 150", got)
	}
}
