package main

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"netsim/experiments/report"
)

// writeReport reads dir/results.jsonl back and writes, next to it,
// table.md (report.WriteSummary), table.csv (the default pivot, as netsim
// table --format csv prints it) and the charts of netsim plot, so that
// a resumed run's report covers every result in the file.
func writeReport(dir string) error {
	results, _, err := report.ReadFiles([]string{filepath.Join(dir, "results.jsonl")})
	if err != nil {
		return err
	}
	var errs []error
	var md bytes.Buffer
	if err := report.WriteSummary(&md, results); err != nil {
		errs = append(errs, err)
	} else {
		errs = append(errs, writeAtomic(filepath.Join(dir, "table.md"), md.Bytes()))
	}
	if t, err := report.Pivot(results, report.Spec{Extend: true}); err == nil {
		var csv bytes.Buffer
		if err := t.WriteCSV(&csv); err != nil {
			errs = append(errs, err)
		} else {
			errs = append(errs, writeAtomic(filepath.Join(dir, "table.csv"), csv.Bytes()))
		}
	}
	figs, err := report.Figures(results, "routing")
	if err != nil {
		errs = append(errs, err)
	} else if _, err := report.WriteFigures(dir, figs); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("writing the report in %s: %w", dir, err)
	}
	return nil
}
