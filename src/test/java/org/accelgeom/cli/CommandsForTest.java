package org.accelgeom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** A run builds the picocli model of the command it names only; help and unknown commands see all of them. */
class CommandsForTest {

    @Test
    void aNamedCommandAloneElseAll() {
        assertEquals(List.of(HullCommand.class), Main.commandsFor("hull", "--random", "10"));
        assertEquals(List.of(VoronoiCommand.class), Main.commandsFor("voronoi"));
        assertEquals(Main.COMMANDS, Main.commandsFor());
        assertEquals(Main.COMMANDS, Main.commandsFor("--help"));
        assertEquals(Main.COMMANDS, Main.commandsFor("help", "hull"));
        assertEquals(Main.COMMANDS, Main.commandsFor("hul"));
        assertEquals(Main.COMMANDS, Main.commandsFor("--backend", "hull"));
    }

    @Test
    void everyCommandIsListedAndReachableByItsName() {
        CommandLine all = Main.commandLine("--help");
        assertEquals(Main.COMMANDS.size(), all.getSubcommands().size());
        for (String name : all.getSubcommands().keySet()) {
            if (!name.equals("help")) {
                CommandLine one = Main.commandLine(name, "--help");
                assertEquals(List.of(name), List.copyOf(one.getSubcommands().keySet()));
                assertTrue(one.getSubcommands().get(name).getCommandSpec().versionProvider() != null, name);
            }
        }
    }
}
