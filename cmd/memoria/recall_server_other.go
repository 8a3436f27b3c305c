//go:build !linux

package main

import "net"

// peerIsSelf trusts the socket's permissions (its owner's only) where the
// peer's credentials are not asked for.
func peerIsSelf(net.Conn) bool { return true }
