package ibsim

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"netsim/topologies"
)

func build(t *testing.T, spec topologies.Spec) *topologies.Network {
	t.Helper()
	net, err := topologies.Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// TestWriteNet checks the net file of a small ring against ibsim's format.
func TestWriteNet(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	var b bytes.Buffer
	if err := WriteNet(&b, net); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"Switch\t3 \"S1\"\n[1]\t\"H1\"[1]\n", "Hca\t1 \"H1\"\n[1]\t\"S1\"[1]\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("net file lacks %q:\n%s", want, text)
		}
	}
}

// TestFabric runs ibsim on a ring, OpenSM's minhop once, and ibnetdiscover,
// and checks what they print; up/down without roots on a ring makes OpenSM
// fall back to minhop, which must be reported.
func TestFabric(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "ring", Switches: 4, HostsPerSwitch: 2})
	f := StartTest(t, net)
	dumps, err := f.OpenSM("minhop")
	if err != nil {
		t.Fatal(err)
	}
	lft, err := os.ReadFile(filepath.Join(dumps, "opensm-lfts.dump"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(lft, []byte("Unicast lids")); n != 4 {
		t.Errorf("opensm-lfts.dump has %d switch blocks, want 4:\n%s", n, lft)
	}
	out, err := f.Run("ibnetdiscover")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(out, []byte("\nSwitch\t")); n != 4 {
		t.Errorf("ibnetdiscover lists %d switches, want 4:\n%s", n, out)
	}
	if n := bytes.Count(out, []byte("\nCa\t")); n != 8 {
		t.Errorf("ibnetdiscover lists %d CAs, want 8:\n%s", n, out)
	}
	_, err = f.OpenSM("updn")
	var fb *FallbackError
	if !errors.As(err, &fb) || fb.Used != "minhop" {
		t.Errorf("updn without roots on a ring: got %v, want a fallback to minhop", err)
	}
}

// TestDaemon starts OpenSM as a daemon, asks it for a path record and
// stops it by its process id.
func TestDaemon(t *testing.T) {
	net := build(t, topologies.Spec{Kind: "ring", Switches: 3, HostsPerSwitch: 1})
	f := StartTest(t, net)
	stop, err := f.Daemon("minhop")
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Run("saquery", "-p")
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("PathRecord")) {
		t.Errorf("saquery -p printed no path record:\n%s", out)
	}
}

func TestEngine(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"", ""},
		{"x -> osm_ucast_mgr_process: minhop tables configured on all switches\n", "minhop"},
		{"a -> osm_ucast_mgr_process: updn tables configured on all switches\nb -> osm_ucast_mgr_process: dfsssp tables configured on all switches\n", "dfsssp"},
		{"osm_ucast_mgr_process: something else\n", ""},
	} {
		if got := Engine([]byte(c.log)); got != c.want {
			t.Errorf("Engine(%q) = %q, want %q", c.log, got, c.want)
		}
	}
}
