package experiments

import "testing"

func TestPointSeed(t *testing.T) {
	ref := PointSeed(1, "uniform", 0.5)
	if PointSeed(1, "uniform", 0.5) != ref {
		t.Fatal("PointSeed is not a function of its arguments")
	}
	others := map[string]uint64{
		"seed":    PointSeed(2, "uniform", 0.5),
		"pattern": PointSeed(1, "complement", 0.5),
		"load":    PointSeed(1, "uniform", 0.5+1.0/128),
	}
	for what, s := range others {
		if s == ref {
			t.Errorf("changing the %s does not change the seed", what)
		}
	}
}
