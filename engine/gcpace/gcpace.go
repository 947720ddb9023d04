package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// minimumHeap is the runtime's heap goal at GOGC=100 when almost nothing
// is live; a GOGC of p makes it minimumHeap*p/100.
const minimumHeap = 4 << 20

// liveHeap is the runtime metric of the heap the last collection marked.
const liveHeap = "/gc/heap/live:bytes"

// Pacer keeps the heap goal at or above a floor. After each collection it
// sets the GC percentage so that the next goal is the larger of twice the
// live heap (the default pace) and the floor.
type Pacer struct {
	floor uint64

	mu      sync.Mutex
	stopped bool
	percent int // what the pacer last set; 0 before Start
	sample  []metrics.Sample
	prior   int // the percentage before Start, restored by Stop
}

// sentinel is an object the pacer drops at each collection: its finalizer
// runs after the collection that found it unreachable. It holds a pointer
// so that it is an object of its own, not part of a tiny block that other
// allocations keep alive.
type sentinel struct{ p *Pacer }

// New returns a pacer whose heap goal is at least floor bytes.
func New(floor uint64) *Pacer {
	return &Pacer{floor: max(floor, minimumHeap), sample: []metrics.Sample{{Name: liveHeap}}}
}

// Start sets the pace for an empty heap and follows each collection from
// now on until Stop.
func (p *Pacer) Start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.percent = p.percentFor(0)
	p.prior = debug.SetGCPercent(p.percent)
	p.arm()
}

// Stop gives the runtime back the percentage it had before Start.
func (p *Pacer) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.percent == 0 {
		return
	}
	p.stopped = true
	debug.SetGCPercent(p.prior)
}

// Percent returns the GC percentage the pacer set last (0 before Start).
func (p *Pacer) Percent() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.percent
}

// percentFor returns the percentage whose goal is max(2*live, floor): the
// goal is live*(1+p/100), but never below minimumHeap*p/100, so p is also
// capped where that minimum reaches the floor.
func (p *Pacer) percentFor(live uint64) int {
	ceiling := int(p.floor * 100 / minimumHeap)
	if live == 0 {
		return ceiling
	}
	if 2*live >= p.floor {
		return 100
	}
	return min(int((p.floor-live)*100/live), ceiling)
}

// arm drops a new sentinel; the collection that frees it calls collected.
func (p *Pacer) arm() {
	runtime.SetFinalizer(&sentinel{p: p}, func(s *sentinel) { s.p.collected() })
}

// collected runs on the finalizer goroutine after a collection.
func (p *Pacer) collected() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	metrics.Read(p.sample)
	var live uint64
	if p.sample[0].Value.Kind() == metrics.KindUint64 {
		live = p.sample[0].Value.Uint64()
	}
	if pc := p.percentFor(live); pc != p.percent {
		debug.SetGCPercent(pc)
		p.percent = pc
	}
	p.arm()
}
