// Package results is the one record of a netsim results file: the JSON
// line that netsim run writes for each measured point, saturation search,
// exchange and failed point (Line), and the schema derived from it (Fields).
//
// Everything that reads or writes results lines goes through this
// package: the writer (Line.AppendJSON), the resume reader and the report
// reader (Decode), the pivot tables (Field.Text, Field.Number) and the
// reference of the results fields in docs/results.md (Reference). A field
// is declared once, as a field of Line (or of the Measures and Exchange
// structs it embeds) with its tags:
//
//	json:"name"     the field's name in the line
//	results:"..."   comma-separated options:
//	    KIND|KIND   the kinds of line that carry it (point, saturation, ebb,
//	                error); none: every kind
//	    required    a line of its kinds without it is an error
//	    places=N    decimals written for a float (-1: shortest exact form)
//	    null        NaN is written as null, and null is read as NaN
//	    omitnan     NaN (floats) or zero (other types) is left out of the
//	                line, and a line without the field reads as NaN or zero
//	    default=V   a text left out of the line when it is V, read as V
//	                when absent
//	    min=X max=X the range of a number (max=inf: any finite number)
//	    outcome     a measurement or outcome, not part of what identifies
//	                the result (tables do not show it as a row key)
//	    sample      an average over the measured packets delivered, so it
//	                has no value when field delivered is 0
//	    value=N     a value tables can show in their cells, N-th in lists
//	    show=N      decimals a table rounds the value to for reading
//	    percent     a fraction shown in % by tables
//	label:"..."     a value's description in captions and axes
//	doc:"..."       one line for the reference
//
// Adding a measured field to the results takes its field in Measures (with
// its tags) and the code that measures it: the writer, the readers, the
// tables and the reference follow.
package results
