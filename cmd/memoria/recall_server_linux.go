package main

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// peerIsSelf reports whether the process at the other end of a Unix socket
// runs as this one's user. The socket is its owner's only already; this
// holds even where a folder's permissions were loosened.
func peerIsSelf(conn net.Conn) bool {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return false
	}
	same := false
	raw.Control(func(fd uintptr) {
		cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
		same = err == nil && int(cred.Uid) == os.Getuid()
	})
	return same
}
