package jobs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRegistry(t *testing.T) {
	var r Registry
	failed := make(chan Info, 1)
	r.SetFailureHandler(func(i Info) { failed <- i })

	done := r.Add("bounded", true, nil)
	r.Finish(done, nil)

	boom := errors.New("boom")
	r.Add("fails", true, func(context.Context) error { return boom })
	select {
	case i := <-failed:
		if i.Name != "fails" || i.Status != Failed || !errors.Is(i.Err, boom) {
			t.Errorf("failure report %+v", i)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no failure report")
	}

	endless := r.Add("endless", false, func(ctx context.Context) error {
		<-ctx.Done()
		return ctx.Err()
	})
	if r.Find(endless.ID()) != endless || r.Find(NewID()) != nil {
		t.Error("Find does not find by id")
	}
	if got := r.CloseAll(); len(got) != 1 || got[0] != endless.ID() {
		t.Errorf("CloseAll cancelled %v, want the endless job", got)
	}
	var states []string
	for _, i := range r.Snapshot() {
		states = append(states, i.Name+"="+i.Status)
	}
	if want := "endless=CANCELED fails=FAILED bounded=FINISHED"; strings.Join(states, " ") != want {
		t.Errorf("jobs %s, want %s", strings.Join(states, " "), want)
	}
}

func TestCheckID(t *testing.T) {
	if err := CheckID(NewID()); err != nil {
		t.Errorf("a new id: %v", err)
	}
	var e *Error
	if err := CheckID("zz"); !errors.As(err, &e) || e.Class() != "NumberFormatException" {
		t.Errorf("CheckID(zz) = %v", err)
	}
	if err := CheckID("abcd"); !errors.As(err, &e) || e.Class() != "IllegalArgumentException" {
		t.Errorf("CheckID(abcd) = %v", err)
	}
}
