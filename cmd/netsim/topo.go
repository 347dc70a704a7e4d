package main

// topoCmd returns netsim topo, whose subcommands work on topologies.
func topoCmd() *Command {
	return &Command{
		Name:      "topo",
		UsageLine: "netsim topo SUBCOMMAND ...",
		Short:     "work on topologies without simulating them",
		Long:      "Works on topologies without simulating them.\n",
		Commands:  []*Command{topoDescribeCmd(), topoExportCmd(), topoRecoverCmd()},
	}
}
