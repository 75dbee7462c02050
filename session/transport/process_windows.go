package transport

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// startProcess spawns the server in a job object of its own. Windows has neither process
// groups nor signals; a job holds the server and everything it starts (npx → node), and
// ends them together. The server is created suspended, put in the job, then let run, so
// that nothing it starts can escape the job. The job kills its processes when its last
// handle closes (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE): that handle is mcpscope's, so the
// whole tree ends with the session and also when mcpscope itself ends, however it ends.
//
// Every signal terminates the whole job at once: there is no gentler request to make of a
// console program that shares no console group with mcpscope. When the server exits by
// itself, what it started has the grace period to end, then the job is terminated.
func startProcess(_ context.Context, spec ProcessSpec) (*Process, error) {
	job, err := newKillOnCloseJob()
	if err != nil {
		return nil, fmt.Errorf("job object: %w", err)
	}
	cmd := command(spec)
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED}
	if err := cmd.Start(); err != nil {
		windows.CloseHandle(job)
		return nil, err
	}
	if err := assignAndResume(job, uint32(cmd.Process.Pid)); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		windows.CloseHandle(job)
		return nil, fmt.Errorf("job object: %w", err)
	}
	p := &Process{pid: cmd.Process.Pid, exited: make(chan struct{}), done: make(chan struct{})}
	var mu sync.Mutex // guards closed, and job's use against its closing
	closed := false
	terminate := func() {
		mu.Lock()
		defer mu.Unlock()
		if !closed {
			windows.TerminateJobObject(job, 1)
		}
	}
	p.signal = func(syscall.Signal) { terminate() }
	go func() {
		err := cmd.Wait()
		p.exit = processExit(cmd.ProcessState, err)
		close(p.exited)
		if activeProcesses(job) > 0 {
			deadline := time.Now().Add(spec.Grace)
			for activeProcesses(job) > 0 && time.Now().Before(deadline) {
				time.Sleep(groupPoll)
			}
			terminate()
			for activeProcesses(job) > 0 {
				time.Sleep(groupPoll)
			}
		}
		mu.Lock()
		closed = true
		windows.CloseHandle(job)
		mu.Unlock()
		close(p.done)
	}()
	return p, nil
}

// groupPoll is how often the job is checked for processes still running.
const groupPoll = 20 * time.Millisecond

// newKillOnCloseJob creates an unnamed job object whose processes are killed when its last
// handle is closed.
func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

// assignAndResume puts the suspended process pid into job, then resumes its threads (one,
// for a process just created).
func assignAndResume(job windows.Handle, pid uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return err
	}
	err = windows.AssignProcessToJobObject(job, h)
	windows.CloseHandle(h)
	if err != nil {
		return err
	}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed++
	}
	if !errors.Is(err, windows.ERROR_NO_MORE_FILES) {
		return err
	}
	if resumed == 0 {
		return errors.New("the new process has no thread to resume")
	}
	return nil
}

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime             int64
	TotalKernelTime           int64
	ThisPeriodTotalUserTime   int64
	ThisPeriodTotalKernelTime int64
	TotalPageFaultCount       uint32
	TotalProcesses            uint32
	ActiveProcesses           uint32
	TotalTerminatedProcesses  uint32
}

// activeProcesses is how many processes of the job are still running; 0 when the job
// cannot be queried.
func activeProcesses(job windows.Handle) uint32 {
	var info jobAccounting
	if err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil); err != nil {
		return 0
	}
	return info.ActiveProcesses
}
