// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import CamStamp
import CLI
internal import CStartSignals
import Foundation

// SIGINT, SIGTERM and SIGUSR1 have been blocked since before the libraries' initialisers
// (CStartSignals); any that came since are pending. From here one thread takes them, the
// pending ones first.
_ = camstamp_signals_blocked_at_start()
Interrupts.shared.install()
exit(runCommandLine(Array(CommandLine.arguments.dropFirst())).rawValue)
