package slurmtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCluster starts a cluster, runs a batch job on it and checks its
// output.
func TestCluster(t *testing.T) {
	c := StartTest(t, 2)
	dir := t.TempDir()
	script := filepath.Join(dir, "job.sh")
	out := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n#SBATCH --output="+out+"\necho hello from $SLURM_JOB_ID\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	id, err := c.Command(context.Background(), "sbatch", "--parsable", script).Output()
	if err != nil {
		t.Fatal(err)
	}
	jid := strings.TrimSpace(string(id))
	deadline := time.Now().Add(time.Minute)
	for {
		data, _ := os.ReadFile(out)
		if strings.Contains(string(data), "hello from "+jid) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s wrote %q", jid, data)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
