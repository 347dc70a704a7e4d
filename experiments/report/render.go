package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure size and PNG resolution.
const (
	figWidth  = 7.5 * vg.Inch
	figHeight = 4.5 * vg.Inch
	pngDPI    = 120
)

// Formats are the file formats WriteFigures writes, as file extensions.
func Formats() []string { return []string{"png", "svg"} }

// Write renders the figure as PNG or SVG (format "png" or "svg").
func (f *Figure) Write(w io.Writer, format string) error {
	var err error
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(figWidth, figHeight), vgimg.UseDPI(pngDPI))
		f.draw(draw.New(c))
		_, err = vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	case "svg":
		c := vgsvg.New(figWidth, figHeight)
		f.draw(draw.New(c))
		_, err = c.WriteTo(w)
	default:
		return fmt.Errorf("figure %s: unknown format %q (expected png or svg)", f.Name, format)
	}
	if err != nil {
		return fmt.Errorf("figure %s: writing %s: %w", f.Name, format, err)
	}
	return nil
}

// draw draws the plot on the left of c and the legend in a column on the
// right.
func (f *Figure) draw(c draw.Canvas) {
	c.SetColor(f.Plot.BackgroundColor)
	c.Fill(c.Rectangle.Path())
	plotArea, legendArea := f.layout(c)
	f.Plot.Draw(plotArea)
	legend := f.Legend
	legend.Draw(legendArea)
}

// layout splits c into the plot's area and the legend's: a column right
// of the plot whose top is level with the top of the data area, or, when
// the legend would take more than 40 % of the width, a band below the
// plot.
func (f *Figure) layout(c draw.Canvas) (plotArea, legendArea draw.Canvas) {
	margin := vg.Points(10)
	c = draw.Crop(c, margin, -margin, margin, -margin)
	size := f.Legend.Rectangle(c).Size()
	width := size.X
	gap := vg.Points(14)
	if width > 0.4*c.Size().X {
		plotArea = draw.Crop(c, 0, 0, size.Y+gap, 0)
		legendArea = c
		legendArea.Max.Y = plotArea.Min.Y - gap
		return plotArea, legendArea
	}
	plotArea = draw.Crop(c, 0, -(width + gap), 0, 0)
	legendArea = c
	legendArea.Min.X = plotArea.Max.X + gap
	legendArea.Max.Y = f.Plot.DataCanvas(plotArea).Max.Y
	return plotArea, legendArea
}

// WriteFigures writes every figure to dir as NAME.png and NAME.svg and
// returns the paths written, in order.
func WriteFigures(dir string, figs []*Figure) ([]string, error) {
	var paths []string
	for _, f := range figs {
		for _, format := range Formats() {
			p := filepath.Join(dir, f.Name+"."+format)
			if err := writeFile(p, func(w io.Writer) error { return f.Write(w, format) }); err != nil {
				return paths, err
			}
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// writeFile creates path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(file)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
