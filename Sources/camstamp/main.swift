// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
import CLI
import Foundation

// Before any other thread exists: Ctrl-C, SIGTERM and SIGUSR1 are taken by one thread from here
// on, so none arriving during start-up is lost.
Interrupts.shared.install()
exit(runCommandLine(Array(CommandLine.arguments.dropFirst())).rawValue)
