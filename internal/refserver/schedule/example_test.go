package schedule_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/agentplatform/agentplatform-go/internal/refserver/schedule"
)

func Example() {
	s, err := schedule.Parse("30 2 * * 0-7", "America/New_York")
	if err != nil {
		panic(err)
	}
	// 2026-03-08 is the spring-forward day: 02:30 does not exist there and
	// fires at 03:00 EDT instead.
	for _, run := range s.Upcoming(time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC), 3) {
		fmt.Println(run.Format(time.RFC3339))
	}
	// Output:
	// 2026-03-07T07:30:00Z
	// 2026-03-08T07:00:00Z
	// 2026-03-09T06:30:00Z
}

func ExampleError() {
	_, err := schedule.Parse("0 9 * * 8", "UTC")
	var e *schedule.Error
	if errors.As(err, &e) {
		fmt.Println(e.Field)
		fmt.Println(e)
	}
	// Output:
	// schedule.expression
	// schedule.expression: day-of-week value 8 is out of range 0-7
}
