package kit

import "time"

// EverySecond runs fn in the background once a second until the returned
// stop function is called; stop waits for the goroutine to end. With a
// frozen ManualClock it does nothing: the clock's moves (OnMove) drive
// time-driven work then. A running one (NewRunningClock) also moves with
// real time, which nothing announces, so it is ticked like the system
// clock.
func EverySecond(c Clock, fn func()) (stop func()) {
	if mc, manual := c.(*ManualClock); manual && !mc.running() {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				fn()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
