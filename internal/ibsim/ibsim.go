// Package ibsim runs the real InfiniBand programs netsim is checked
// against — the ibsim fabric simulator, the OpenSM subnet manager and the
// infiniband-diags tools (ibnetdiscover, dump_lfts, dump_fts, smpquery,
// saquery) — on a fabric described by a netsim network, and collects what
// they print and dump. Tests use it to import a fabric and its forwarding
// tables as a user with a real cluster would, and to compare netsim's
// engines and deadlock check with OpenSM's.
//
// The programs come from Debian's packages opensm, ibsim-utils,
// libumad2sim0 and infiniband-diags; scripts/install-infiniband.sh
// installs them. Every process is started by this package with a time
// limit and stopped by its process id; each Fabric has its own ibsim
// socket name (IBSIM_SOCKNAME), so fabrics of parallel tests do not meet.
package ibsim

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"netsim/topologies"
)

// Umad2sim is the library that connects the InfiniBand tools to ibsim in
// place of a real HCA (LD_PRELOAD).
const Umad2sim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so"

// Timeout bounds every program this package runs (ibsim itself runs until
// Stop).
const Timeout = 2 * time.Minute

// tools are the programs the package runs.
var tools = []string{"ibsim", "opensm", "ibnetdiscover", "dump_lfts", "dump_fts", "smpquery", "saquery"}

// Check returns nil when every program and Umad2sim is installed, and
// otherwise an error naming what is missing and the script that
// installs it.
func Check() error {
	var missing []string
	for _, t := range tools {
		if _, err := exec.LookPath(t); err != nil {
			missing = append(missing, t)
		}
	}
	if _, err := os.Stat(Umad2sim); err != nil {
		missing = append(missing, Umad2sim)
	}
	if len(missing) > 0 {
		return fmt.Errorf("ibsim: %s not installed (run scripts/install-infiniband.sh as root: Debian's opensm, ibsim-utils, libumad2sim0 and infiniband-diags)", strings.Join(missing, ", "))
	}
	return nil
}

// WriteNet writes net as an ibsim net file: a Switch block per switch
// with as many ports as the switch has, named by the network's display
// names, and an Hca block with one port per host. Switch port p is
// InfiniBand port p+1; the first switch comes first, so ibsim puts the
// subnet manager's port (the first port of the file) on it.
func WriteNet(w io.Writer, net *topologies.Network) error {
	swNames, hostNames := net.DisplayNames()
	bw := bufio.NewWriter(w)
	for s, sw := range net.Switches {
		fmt.Fprintf(bw, "Switch\t%d %q\n", len(sw.Ports), swNames[s])
		for p, port := range sw.Ports {
			switch port.Kind {
			case topologies.SwitchPort:
				fmt.Fprintf(bw, "[%d]\t%q[%d]\n", p+1, swNames[port.Peer], port.PeerPort+1)
			case topologies.HostPort:
				fmt.Fprintf(bw, "[%d]\t%q[1]\n", p+1, hostNames[port.Peer])
			}
		}
		bw.WriteString("\n")
	}
	for h, a := range net.Hosts {
		fmt.Fprintf(bw, "Hca\t1 %q\n[1]\t%q[%d]\n\n", hostNames[h], swNames[a.Switch], a.Port+1)
	}
	return bw.Flush()
}

// Fabric is a running ibsim with its working directory.
type Fabric struct {
	dir  string
	sock string
	cmd  *exec.Cmd
	log  *bytes.Buffer
	done chan error
}

// Start writes net as dir/net, starts ibsim on it and waits until it
// listens. dir must exist; logs and dumps go there. The caller must Stop
// the fabric.
func Start(dir string, net *topologies.Network) (*Fabric, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := WriteNet(&buf, net); err != nil {
		return nil, err
	}
	netFile := filepath.Join(dir, "net")
	if err := os.WriteFile(netFile, buf.Bytes(), 0o644); err != nil {
		return nil, fmt.Errorf("ibsim: %w", err)
	}
	// The socket name is unique per process and directory.
	h := fnv.New64a()
	h.Write([]byte(dir))
	f := &Fabric{dir: dir, sock: fmt.Sprintf("netsim%d-%x", os.Getpid(), h.Sum64()), log: new(bytes.Buffer), done: make(chan error, 1)}
	f.cmd = exec.Command("ibsim", "-n", "-s", netFile)
	f.cmd.Dir = dir
	f.cmd.Env = append(os.Environ(), "IBSIM_SOCKNAME="+f.sock)
	f.cmd.Stdout, f.cmd.Stderr = f.log, f.log
	f.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := f.cmd.Start(); err != nil {
		return nil, fmt.Errorf("ibsim: start: %w", err)
	}
	go func() { f.done <- f.cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for !f.listening() {
		select {
		case err := <-f.done:
			f.done <- err
			return nil, fmt.Errorf("ibsim: exited before listening (%v): %s", err, f.log.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			f.Stop()
			return nil, fmt.Errorf("ibsim: not listening on @%s:ctl@ after 30 s", f.sock)
		}
	}
	return f, nil
}

// listening reports whether ibsim's control socket is open.
func (f *Fabric) listening() bool {
	data, err := os.ReadFile("/proc/net/unix")
	return err == nil && bytes.Contains(data, []byte("@"+f.sock+":ctl@"))
}

// Pid returns the process id of ibsim.
func (f *Fabric) Pid() int { return f.cmd.Process.Pid }

// Dir returns the fabric's working directory.
func (f *Fabric) Dir() string { return f.dir }

// Stop ends ibsim by its process id (SIGTERM, then SIGKILL after 5 s) and
// waits for it.
func (f *Fabric) Stop() {
	pid := f.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-f.done:
	case <-time.After(5 * time.Second):
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		<-f.done
	}
}

// env is the environment of a program run on the fabric.
func (f *Fabric) env() []string {
	return append(os.Environ(), "IBSIM_SOCKNAME="+f.sock, "LD_PRELOAD="+Umad2sim,
		"OSM_TMP_DIR="+f.dir, "OSM_CACHE_DIR="+f.dir)
}

// Run runs program with args on the fabric (under umad2sim) and returns
// its standard output; an error carries its standard error. It is ended
// by its process id after Timeout.
func (f *Fabric) Run(program string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, program, args...)
	cmd.Dir, cmd.Env = f.dir, f.env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("%s %s: %w: %s", program, strings.Join(args, " "), err, lastLines(errb.String(), 5))
	}
	return out.Bytes(), nil
}

// OpenSM runs OpenSM once (opensm -o) with the routing engine engine and
// extra options, and returns the directory of its dumps
// (opensm-lfts.dump, opensm.fdbs, opensm-sl2vl.dump with QoS, …) and its
// log. When OpenSM routed with another engine than engine (it falls back
// to minhop when an engine fails), the error is a *FallbackError and the
// dumps are those of the engine used.
func (f *Fabric) OpenSM(engine string, extra ...string) (dumps string, err error) {
	dumps = filepath.Join(f.dir, "osm-"+engine)
	if err := os.MkdirAll(dumps, 0o755); err != nil {
		return "", fmt.Errorf("opensm: %w", err)
	}
	logFile := filepath.Join(dumps, "opensm.log")
	args := append([]string{"-o", "-R", engine, "-f", logFile, "-D", "0x47", "--dump_files_dir", dumps}, extra...)
	if _, err := f.Run("opensm", args...); err != nil {
		return "", err
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		return "", fmt.Errorf("opensm: %w", err)
	}
	if !bytes.Contains(log, []byte("SUBNET UP")) {
		return "", fmt.Errorf("opensm -R %s: no SUBNET UP in %s: %s", engine, logFile, lastLines(string(log), 5))
	}
	if used := Engine(log); used != engine {
		return dumps, &FallbackError{Engine: engine, Used: used, Log: logFile}
	}
	if _, err := os.Stat(filepath.Join(dumps, "opensm-lfts.dump")); err != nil {
		return "", fmt.Errorf("opensm -R %s: no LFT dump: %w", engine, err)
	}
	return dumps, nil
}

// FallbackError reports that OpenSM routed with another engine than the
// one asked for.
type FallbackError struct {
	Engine, Used, Log string
}

func (e *FallbackError) Error() string {
	return fmt.Sprintf("opensm -R %s routed with %q instead (log %s)", e.Engine, e.Used, e.Log)
}

// Engine returns the routing engine an OpenSM log says configured the
// switches ("osm_ucast_mgr_process: NAME tables configured"), the last
// one when it routed several times, or "" when it says none.
func Engine(log []byte) string {
	const mark = "osm_ucast_mgr_process: "
	used := ""
	for rest := log; ; {
		i := bytes.Index(rest, []byte(mark))
		if i < 0 {
			return used
		}
		rest = rest[i+len(mark):]
		if name, tail, ok := bytes.Cut(rest, []byte(" ")); ok && bytes.HasPrefix(tail, []byte("tables configured")) {
			used = string(name)
		}
	}
}

// ErrNoSubnet is returned by Daemon when OpenSM does not bring the subnet
// up in time.
var ErrNoSubnet = errors.New("opensm: the subnet did not come up")

// Daemon starts OpenSM as a daemon with the routing engine engine and
// extra options, waits until the subnet is up, and returns a function that
// stops it by its process id. Path records (saquery) need it.
func (f *Fabric) Daemon(engine string, extra ...string) (stop func(), err error) {
	logFile := filepath.Join(f.dir, "opensm-daemon-"+engine+".log")
	args := append([]string{"-R", engine, "-f", logFile, "-d", "2"}, extra...) // -d 2: flush the log after each line
	cmd := exec.Command("opensm", args...)
	cmd.Dir, cmd.Env = f.dir, f.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("opensm: start: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	stop = func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	deadline := time.Now().Add(Timeout)
	for {
		log, _ := os.ReadFile(logFile)
		if bytes.Contains(log, []byte("SUBNET UP")) {
			return stop, nil
		}
		select {
		case err := <-done:
			done <- err
			stop()
			return nil, fmt.Errorf("opensm -R %s exited (%v): %s", engine, err, lastLines(string(log), 5))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			stop()
			return nil, fmt.Errorf("%w within %v (opensm -R %s, log %s)", ErrNoSubnet, Timeout, engine, logFile)
		}
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// PathRecords asks the running subnet manager (Daemon) for the path
// record of every ordered pair of hosts of net on different switches,
// as a user collects them ("saquery -p --slid S --dlid D"), and returns
// saquery's output concatenated. net is the fabric as ibnetdiscover
// reports it (its LIDs, net.IB).
func (f *Fabric) PathRecords(net *topologies.Network) ([]byte, error) {
	if net.IB == nil {
		return nil, errors.New("ibsim: path records need the LIDs of an ibnetdiscover import")
	}
	var calls [][]string
	for src, a := range net.Hosts {
		for dst, b := range net.Hosts {
			if a.Switch != b.Switch {
				calls = append(calls, []string{"saquery", "-p", "--slid", fmt.Sprint(net.IB.Hosts[src].LID), "--dlid", fmt.Sprint(net.IB.Hosts[dst].LID)})
			}
		}
	}
	return f.runAll(calls)
}

// SL2VL asks every connected port of every switch of net, and every CA
// port, for its SL2VL table ("smpquery sl2vl LID [PORT]"), as a user
// collects them without OpenSM's dump, and returns smpquery's output
// concatenated. net is the fabric as ibnetdiscover reports it.
func (f *Fabric) SL2VL(net *topologies.Network) ([]byte, error) {
	if net.IB == nil {
		return nil, errors.New("ibsim: SL2VL queries need the LIDs of an ibnetdiscover import")
	}
	var calls [][]string
	for s, sw := range net.Switches {
		for p, port := range sw.Ports {
			if port.Kind != topologies.Unused {
				calls = append(calls, []string{"smpquery", "sl2vl", fmt.Sprint(net.IB.Switches[s].LID), fmt.Sprint(p + 1)})
			}
		}
	}
	for _, h := range net.IB.Hosts {
		calls = append(calls, []string{"smpquery", "sl2vl", fmt.Sprint(h.LID)})
	}
	return f.runAll(calls)
}

// runAll runs each call (a program and its arguments) in turn on the
// fabric and returns their outputs concatenated; it stops at the first
// that fails.
func (f *Fabric) runAll(calls [][]string) ([]byte, error) {
	var all bytes.Buffer
	for _, c := range calls {
		out, err := f.Run(c[0], c[1:]...)
		if err != nil {
			return nil, err
		}
		all.Write(out)
	}
	return all.Bytes(), nil
}
