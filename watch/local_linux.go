package watch

import "syscall"

// localTypes are the filesystems whose changes inotify sees whichever
// process makes them: those kept on this machine's own disks or memory.
// A filesystem another machine writes to (NFS, SMB, Ceph, FUSE, 9p) is
// not one of them.
var localTypes = map[int64]bool{
	0xEF53:     true, // ext2, ext3, ext4
	0x58465342: true, // XFS
	0x9123683E: true, // Btrfs
	0x01021994: true, // tmpfs
	0x858458F6: true, // ramfs
	0x794C7630: true, // overlayfs (containers)
	0xF2F52010: true, // F2FS
	0x2FC12FC1: true, // ZFS
	0xCA451A4E: true, // bcachefs
	0x3153464A: true, // JFS
	0x52654973: true, // ReiserFS
}

// localFS reports whether dir is on a local filesystem.
func localFS(dir string) bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return false
	}
	return localTypes[int64(st.Type)]
}
