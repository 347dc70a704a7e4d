// Package slurmtest runs a real one-node Slurm cluster for netsim's
// tests: the MUNGE authentication daemon (munged), the Slurm controller
// (slurmctld) and the node daemon (slurmd) of Debian's packages munge and
// slurm-wlm, which scripts/install-slurm.sh installs. Everything lives in
// a directory of the test's: the MUNGE key and socket, slurm.conf (on
// ports free when the cluster starts), the controller's state, the
// node's spool and the logs. Every daemon runs in the foreground as a
// child process and is stopped by its process id.
package slurmtest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// NodeName is the name of the cluster's one node.
const NodeName = "netsim0"

// startTimeout bounds the wait for a daemon to come up.
const startTimeout = 30 * time.Second

// programs are those the cluster runs, and the clients the tests use.
var programs = []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo"}

// Check returns nil when every program is installed, and otherwise an
// error naming what is missing and the script that installs it.
func Check() error {
	var missing []string
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("slurmtest: %s not installed (run scripts/install-slurm.sh as root: Debian's munge and slurm-wlm)", strings.Join(missing, ", "))
	}
	return nil
}

// Cluster is a running one-node Slurm cluster.
type Cluster struct {
	dir   string
	conf  string
	procs []*exec.Cmd // munged, slurmctld, slurmd
	cpus  int
}

// Conf returns the path of the cluster's slurm.conf: Slurm's commands
// find the cluster by the environment variable SLURM_CONF set to it.
func (c *Cluster) Conf() string { return c.conf }

// Env returns the environment in which Slurm's commands talk to the
// cluster: the process's own, with SLURM_CONF set.
func (c *Cluster) Env() []string {
	return append(os.Environ(), "SLURM_CONF="+c.conf)
}

// CPUs returns the CPUs the node offers.
func (c *Cluster) CPUs() int { return c.cpus }

// Pids returns the daemons' process ids.
func (c *Cluster) Pids() []int {
	var out []int
	for _, p := range c.procs {
		out = append(out, p.Process.Pid)
	}
	return out
}

// Start starts a cluster in dir with a node of cpus CPUs. On an error,
// what was started is stopped.
func Start(dir string, cpus int) (*Cluster, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	c := &Cluster{dir: dir, conf: filepath.Join(dir, "slurm.conf"), cpus: cpus}
	for _, d := range []string{"munge", "state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, fmt.Errorf("slurmtest: %w", err)
		}
	}
	key := make([]byte, 1024)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("slurmtest: munge key: %w", err)
	}
	keyFile := filepath.Join(dir, "munge", "munge.key")
	if err := os.WriteFile(keyFile, key, 0o400); err != nil {
		return nil, fmt.Errorf("slurmtest: %w", err)
	}
	socket := filepath.Join(dir, "munge", "munge.socket")
	if err := c.start("munged", "-F", "-f", "--key-file="+keyFile, "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "munge", "munged.pid"), "--seed-file="+filepath.Join(dir, "munge", "munged.seed"),
		"--log-file="+filepath.Join(dir, "log", "munged.log")); err != nil {
		return nil, err
	}
	if err := waitFor(func() bool { _, err := os.Stat(socket); return err == nil }); err != nil {
		c.Stop()
		return nil, fmt.Errorf("slurmtest: munged made no socket: %w (%s)", err, c.log("munged.out"))
	}
	ports, err := freePorts(2)
	if err != nil {
		c.Stop()
		return nil, err
	}
	if err := os.WriteFile(c.conf, []byte(c.slurmConf(socket, ports)), 0o644); err != nil {
		c.Stop()
		return nil, fmt.Errorf("slurmtest: %w", err)
	}
	if err := c.start("slurmctld", "-D", "-f", c.conf); err != nil {
		c.Stop()
		return nil, err
	}
	if err := c.start("slurmd", "-D", "-f", c.conf, "-N", NodeName); err != nil {
		c.Stop()
		return nil, err
	}
	err = waitFor(func() bool {
		out, err := c.Command(context.Background(), "sinfo", "-h", "-o", "%t").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
	if err != nil {
		c.Stop()
		return nil, fmt.Errorf("slurmtest: the node is not idle: %w (%s; %s)", err, c.log("slurmctld.out"), c.log("slurmd.out"))
	}
	return c, nil
}

// slurmConf is the cluster's configuration: everything in c.dir, on the
// given ports, run as the user the tests run as, with no accounting.
func (c *Cluster) slurmConf(socket string, ports []int) string {
	d := c.dir
	user := "root"
	if u := os.Getenv("USER"); u != "" && os.Getuid() != 0 {
		user = u
	}
	lines := []string{
		"# a one-node cluster of netsim's tests (internal/slurmtest)",
		"ClusterName=netsim",
		"SlurmctldHost=localhost(127.0.0.1)",
		"AuthType=auth/munge",
		"AuthInfo=socket=" + socket,
		"CredType=cred/munge",
		"SlurmUser=" + user,
		"SlurmdUser=" + user,
		fmt.Sprintf("SlurmctldPort=%d", ports[0]),
		fmt.Sprintf("SlurmdPort=%d", ports[1]),
		"StateSaveLocation=" + filepath.Join(d, "state"),
		"SlurmdSpoolDir=" + filepath.Join(d, "spool"),
		"SlurmctldPidFile=" + filepath.Join(d, "slurmctld.pid"),
		"SlurmdPidFile=" + filepath.Join(d, "slurmd.pid"),
		"SlurmctldLogFile=" + filepath.Join(d, "log", "slurmctld.log"),
		"SlurmdLogFile=" + filepath.Join(d, "log", "slurmd.log"),
		"ProctrackType=proctrack/linuxproc",
		"TaskPlugin=task/none",
		"SelectType=select/cons_tres",
		"SelectTypeParameters=CR_Core",
		"SchedulerType=sched/backfill",
		"SchedulerParameters=sched_interval=1",
		"ReturnToService=2",
		"MpiDefault=none",
		"JobAcctGatherType=jobacct_gather/none",
		"AccountingStorageType=accounting_storage/none",
		"JobCompType=jobcomp/none",
		"MinJobAge=600",
		"KillWait=5",
		fmt.Sprintf("NodeName=%s NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=%d RealMemory=2000 State=UNKNOWN", NodeName, c.cpus),
		fmt.Sprintf("PartitionName=debug Nodes=%s Default=YES MaxTime=INFINITE State=UP", NodeName),
	}
	return strings.Join(lines, "\n") + "\n"
}

// start starts a daemon of the cluster, its output to log/NAME.out.
func (c *Cluster) start(name string, args ...string) error {
	out, err := os.Create(filepath.Join(c.dir, "log", name+".out"))
	if err != nil {
		return fmt.Errorf("slurmtest: %w", err)
	}
	defer out.Close()
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("slurmtest: %s: %w", name, err)
	}
	c.procs = append(c.procs, cmd)
	return nil
}

// Command returns a Slurm command (sbatch, squeue, ...) set to talk to
// the cluster.
func (c *Cluster) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = c.Env()
	return cmd
}

// Stop stops the daemons by their process ids, newest first: SIGTERM,
// then SIGKILL to each's process group if it has not ended within ten
// seconds; it waits for every one.
func (c *Cluster) Stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		_ = p.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-p.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	c.procs = nil
}

// log returns the last lines of one of the cluster's logs, for errors.
func (c *Cluster) log(name string) string {
	data, err := os.ReadFile(filepath.Join(c.dir, "log", name))
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return name + ": " + strings.Join(lines[max(len(lines)-5, 0):], " | ")
}

// waitFor polls ok until it holds or startTimeout passes.
func waitFor(ok func() bool) error {
	deadline := time.Now().Add(startTimeout)
	for !ok() {
		if time.Now().After(deadline) {
			return errors.New("timed out")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// freePorts returns n TCP ports free on the loopback interface now.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("slurmtest: no free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// StartTest starts a cluster of cpus CPUs in a temporary directory of tb,
// fails tb when Slurm is not installed or does not start, and stops the
// cluster when tb ends, failing tb if a daemon survives.
func StartTest(tb testing.TB, cpus int) *Cluster {
	tb.Helper()
	// Not tb.TempDir: slurmd's spool paths and munge's socket path must
	// stay short (a UNIX socket path is limited to 108 bytes).
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		tb.Fatal(err)
	}
	c, err := Start(dir, cpus)
	if err != nil {
		os.RemoveAll(dir)
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		pids := c.Pids()
		c.Stop()
		for _, pid := range pids {
			if syscall.Kill(pid, 0) == nil {
				tb.Errorf("slurmtest: a daemon (pid %d) still runs after Stop", pid)
			}
		}
		os.RemoveAll(dir)
	})
	return c
}
