import Foundation

// Keep this file to dispatch only: globals here are main-actor isolated, and the server's
// C callbacks must not touch them.
// Trips, photos, exports and backups are private: every file made is 0600, every folder 0700.
umask(0o077)
do {
    guard let invocation = try Invocation.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(Invocation.usage)
        exit(0)
    }
    switch invocation.command {
    case .serve: try ServeCommand(invocation: invocation).run()
    case .import: try ArchiveCommands(invocation: invocation).importArchive()
    case .export: try ArchiveCommands(invocation: invocation).exportArchive()
    case .backup: try ArchiveCommands(invocation: invocation).backup()
    case .restore: try ArchiveCommands(invocation: invocation).restore()
    case .token: try TokenCommand(invocation: invocation).run()
    case .feed: try FeedCommand(invocation: invocation).run()
    case .generateSample: try SampleCommand(invocation: invocation).run()
    }
} catch let error as Invocation.UsageError {
    FileHandle.standardError.write(Data("wishlist: \(error.description)\n".utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("wishlist: \(error)\n".utf8))
    exit(1)
}
