// The mail bench's SMTP client (bench/mail/run.py builds it with `go build` into a temp dir): N
// connections, each sending whole transactions for a fixed time, in one of two modes, and prints
// `messages seconds` on stdout. Standard library only; one goroutine per connection, so the client
// spreads over the cores instead of being the bottleneck (the asyncio client it replaces was).
//
//	plain:     MAIL, RCPT, DATA and the message each wait for their reply (RFC 5321 §4.1.1).
//	pipelined: BATCH whole transactions in one write, then their 4 × BATCH replies (RFC 2920 §3.1,
//	           without waiting for 354: both servers read commands and data strictly in order).
//
// Usage: client -addr 127.0.0.1:2525 -connections 4 -seconds 5 -batch 1 -users 500 -message FILE
package main

import (
	"bufio"
	"flag"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "", "host:port of the SMTP server")
	connections := flag.Int("connections", 1, "connections, each in its own goroutine")
	seconds := flag.Float64("seconds", 5, "how long to send")
	batch := flag.Int("batch", 1, "1: plain (wait for each reply); n > 1: n transactions per write")
	users := flag.Int("users", 500, "recipients rotate over r000000000… r<users-1>@privaterelay.appleid.com")
	messageFile := flag.String("message", "", "the message (CRLF lines, without the final dot line)")
	flag.Parse()
	message, err := os.ReadFile(*messageFile)
	if err != nil || *addr == "" {
		fmt.Fprintln(os.Stderr, "usage: client -addr HOST:PORT -message FILE [-connections N] [-seconds S] [-batch N]", err)
		os.Exit(64)
	}
	var total int64
	var failure atomic.Value
	var group sync.WaitGroup
	started := time.Now()
	deadline := started.Add(time.Duration(*seconds * float64(time.Second)))
	for i := 0; i < *connections; i++ {
		group.Add(1)
		go func(offset int) {
			defer group.Done()
			sent, err := run(*addr, deadline, offset, *users, *batch, message)
			atomic.AddInt64(&total, int64(sent))
			if err != nil {
				failure.Store(err)
			}
		}(i * 31)
	}
	group.Wait()
	elapsed := time.Since(started).Seconds()
	if err, ok := failure.Load().(error); ok {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
	fmt.Printf("%d %.6f\n", total, elapsed)
}

// run drives one connection until the deadline; it returns the messages answered 250.
func run(addr string, deadline time.Time, index, users, batch int, message []byte) (int, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	reader := bufio.NewReaderSize(conn, 64*1024)
	reply := func(want byte) error {
		for {
			line, err := reader.ReadSlice('\n')
			if err != nil {
				return err
			}
			if len(line) < 4 || line[0] != want && !(want == '2' && line[0] == '3') {
				return fmt.Errorf("unexpected reply %q", line)
			}
			if line[3] != '-' {
				return nil
			}
		}
	}
	if err := reply('2'); err != nil {
		return 0, err
	}
	if _, err := conn.Write([]byte("EHLO bench.example\r\n")); err != nil {
		return 0, err
	}
	if err := reply('2'); err != nil {
		return 0, err
	}
	mail := []byte("MAIL FROM:<hello@shop.example>\r\n")
	data := []byte("DATA\r\n")
	body := append(append([]byte{}, message...), ".\r\n"...)
	rcpt := func() []byte {
		line := fmt.Appendf(nil, "RCPT TO:<r%09d@privaterelay.appleid.com>\r\n", index%users)
		index++
		return line
	}
	sent := 0
	for time.Now().Before(deadline) {
		if batch <= 1 {
			for _, command := range [][]byte{mail, rcpt(), data} {
				if _, err := conn.Write(command); err != nil {
					return sent, err
				}
				if err := reply('2'); err != nil {
					return sent, err
				}
			}
			if _, err := conn.Write(body); err != nil {
				return sent, err
			}
			if err := reply('2'); err != nil {
				return sent, err
			}
			sent++
			continue
		}
		chunk := make([]byte, 0, batch*(len(body)+128))
		for i := 0; i < batch; i++ {
			chunk = append(append(append(append(chunk, mail...), rcpt()...), data...), body...)
		}
		if _, err := conn.Write(chunk); err != nil {
			return sent, err
		}
		for i := 0; i < batch*4; i++ {
			if err := reply('2'); err != nil {
				return sent, err
			}
		}
		sent += batch
	}
	if _, err := conn.Write([]byte("QUIT\r\n")); err != nil {
		return sent, err
	}
	return sent, reply('2')
}
