//go:build !linux

package workspace

func newMonitorImpl(string) (monitorImpl, error) { return nil, ErrMonitorUnsupported }
