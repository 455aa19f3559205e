import Foundation

/// The parsed command line: a subcommand, its positional arguments and its options.
struct Invocation {
    enum Command: String, CaseIterable {
        case serve, `import`, export, backup, restore, token, feed
        case generateSample = "generate-sample"
    }

    var command: Command
    var paths: [String] = []
    var host = "127.0.0.1"
    var port: UInt16 = 8080
    var dataDirectory = "./wishlist-data"
    var resourcesDirectory = FileManager.default.currentDirectoryPath
    var allowedHosts: [String] = []
    var reload = false
    var accessLog = false
    /// `import` may replace a wishlist that has trips (after backing it up).
    var replace = false
    var maxPhotoMegabytes = 30
    /// Live-update streams the server keeps open, in all and per client address (nil: the server's own limits).
    var maxLiveStreams: Int?
    var tls = TLSMode.auto
    /// A certificate and key of the owner's own (PEM files), instead of the self-signed one.
    var tlsCertificateFile: String?
    var tlsKeyFile: String?
    /// The trip a new calendar feed shows (`feed create --trip ID`); nil: every trip.
    var feedTrip: Int64?
    var sample = SampleSize()

    /// The size and seed of a generated sample archive.
    struct SampleSize {
        var trips = 100_000
        var activitiesPerTrip = 10
        var seed: UInt64 = 1
    }

    static let usage = """
    Wishlist: plan trips in your browser.

    Usage:
      wishlist serve [options]          serve the app (default command)
      wishlist import PATH [--data-dir DIR] [--replace]
                                        load an export (zip with photos, or JSON) into the database,
                                        all or nothing; replacing trips needs --replace (or a yes)
                                        and backs them up first into DIR/backups/import-<date>/
      wishlist export PATH [--data-dir DIR]
                                        write all trips, activities, goals, preferences and photos
                                        as a zip archive (PATH ending in .json: the document alone)
      wishlist backup PATH [--data-dir DIR]
                                        copy the live database and its photos into the folder PATH
      wishlist restore FOLDER [--data-dir DIR]
                                        put a backup back (also while the server runs)
      wishlist token create NAME [--data-dir DIR]
                                        make an API token for scripts (printed once; only its hash
                                        is kept); its writes show in the history as token:NAME
      wishlist token list [--data-dir DIR]
      wishlist token revoke NAME [--data-dir DIR]
      wishlist feed create NAME [--trip ID] [--data-dir DIR]
                                        make a calendar feed of every trip with dates (or of one)
                                        and print its secret address, once, for a calendar app
      wishlist feed list [--data-dir DIR]
      wishlist feed rotate NAME [--data-dir DIR]
                                        give the feed a new address; the old one stops at once
      wishlist feed revoke NAME [--data-dir DIR]
      wishlist generate-sample PATH [--trips N] [--activities-per-trip N] [--seed N]
                                        write a large deterministic archive for benchmarks
                                        (default 100000 trips, 10 activities each, seed 1)
      wishlist --help                   show this help

    Options for serve:
      --host ADDRESS        address to listen on (default 127.0.0.1; a non-loopback address
                            needs a password in WISHLIST_PASSWORD or WISHLIST_PASSWORD_FILE)
      --port N              port to listen on (default 8080; 0 picks a free one)
      --data-dir DIR        where the database and photos live (default ./wishlist-data)
      --resources DIR       folder holding Templates/ and Public/ (default: working directory)
      --allowed-host NAME   also answer requests for this Host name (repeatable)
      --max-photo-mb N      largest photo upload in megabytes (default 30)
      --max-live-streams N  live-update streams kept open, in all and per client address
                            (default 500 in all, 32 per address), and as many connections
                            per address: for a benchmark of N streams
      --reload              re-read changed templates on every request (development)
      --access-log          print a line per request to standard error
      --tls auto|on|off     serve HTTPS (default auto: on beyond loopback or with --tls-cert);
                            without --tls-cert, a self-signed certificate is made on first use
                            and kept in the data folder; its SHA-256 fingerprint is printed
      --tls-cert FILE       PEM certificate (chain) to serve HTTPS with, with --tls-key
      --tls-key FILE        PEM private key of --tls-cert
    """

    /// What `wishlist token` does (its first argument).
    enum TokenAction: String {
        case create, list, revoke
    }

    /// What `wishlist feed` does (its first argument).
    enum FeedAction: String {
        case create, list, rotate, revoke
    }

    /// When `serve` speaks HTTPS.
    enum TLSMode: String, CaseIterable {
        /// Beyond loopback (so with a password), or when a certificate is given.
        case auto
        case on, off
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `arguments` (without the program name). Returns nil when help was asked for.
    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation? {
        var remaining = arguments[...]
        var invocation = Invocation(command: .serve)
        if let first = remaining.first, !first.hasPrefix("-") {
            guard let command = Command(rawValue: first) else {
                throw UsageError(description: "Unknown command “\(first)”. Commands: \(Command.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            invocation.command = command
            remaining = remaining.dropFirst()
        }
        func value(for option: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw UsageError(description: "\(option) needs a value.")
            }
            return value
        }
        func number(for option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
            let text = try value(for: option)
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(description: "\(option) must be a number from \(range.lowerBound) to \(range.upperBound), not “\(text)”.")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                return nil
            case "--host":
                invocation.host = try value(for: argument)
            case "--port":
                let text = try value(for: argument)
                guard let port = UInt16(text) else {
                    throw UsageError(description: "--port must be a number from 0 to 65535, not “\(text)”.")
                }
                invocation.port = port
            case "--data-dir":
                invocation.dataDirectory = try value(for: argument)
            case "--resources":
                invocation.resourcesDirectory = try value(for: argument)
            case "--allowed-host":
                invocation.allowedHosts.append(try value(for: argument))
            case "--max-photo-mb":
                let text = try value(for: argument)
                guard let megabytes = Int(text), (1...1024).contains(megabytes) else {
                    throw UsageError(description: "--max-photo-mb must be a number from 1 to 1024, not “\(text)”.")
                }
                invocation.maxPhotoMegabytes = megabytes
            case "--max-live-streams":
                let text = try value(for: argument)
                guard let streams = Int(text), (1...100_000).contains(streams) else {
                    throw UsageError(description: "--max-live-streams must be a number from 1 to 100000, not “\(text)”.")
                }
                invocation.maxLiveStreams = streams
            case "--trips":
                invocation.sample.trips = try number(for: argument, in: 0...10_000_000)
            case "--activities-per-trip":
                invocation.sample.activitiesPerTrip = try number(for: argument, in: 0...1000)
            case "--seed":
                invocation.sample.seed = UInt64(try number(for: argument, in: 0...Int.max))
            case "--tls":
                let text = try value(for: argument)
                guard let mode = TLSMode(rawValue: text) else {
                    throw UsageError(description: "--tls must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", ")), not “\(text)”.")
                }
                invocation.tls = mode
            case "--trip":
                invocation.feedTrip = Int64(try number(for: argument, in: 1...Int.max))
            case "--tls-cert":
                invocation.tlsCertificateFile = try value(for: argument)
            case "--tls-key":
                invocation.tlsKeyFile = try value(for: argument)
            case "--reload":
                invocation.reload = true
            case "--access-log":
                invocation.accessLog = true
            case "--replace":
                invocation.replace = true
            case let option where option.hasPrefix("-"):
                throw UsageError(description: "Unknown option “\(option)”. See wishlist --help.")
            default:
                invocation.paths.append(argument)
            }
        }
        if invocation.command == .token {
            guard let action = invocation.paths.first.flatMap(TokenAction.init(rawValue:)),
                  invocation.paths.count == (action == .list ? 1 : 2) else {
                throw UsageError(description: "token needs one of: create NAME, list, revoke NAME.")
            }
            return invocation
        }
        if invocation.command == .feed {
            guard let action = invocation.paths.first.flatMap(FeedAction.init(rawValue:)),
                  invocation.paths.count == (action == .list ? 1 : 2) else {
                throw UsageError(description: "feed needs one of: create NAME [--trip ID], list, rotate NAME, revoke NAME.")
            }
            if invocation.feedTrip != nil, action != .create {
                throw UsageError(description: "--trip goes with feed create only.")
            }
            return invocation
        }
        let expectedPaths = invocation.command == .serve ? 0 : 1
        guard invocation.paths.count == expectedPaths else {
            throw UsageError(description: expectedPaths == 0
                ? "serve takes no file arguments (got “\(invocation.paths[0])”)."
                : "\(invocation.command.rawValue) needs exactly one PATH.")
        }
        if (invocation.tlsCertificateFile == nil) != (invocation.tlsKeyFile == nil) {
            throw UsageError(description: "--tls-cert and --tls-key go together.")
        }
        if invocation.tls == .off, invocation.tlsCertificateFile != nil {
            throw UsageError(description: "--tls off serves no certificate: leave out --tls-cert and --tls-key.")
        }
        return invocation
    }

    /// Where `serve` with these options answers, as a browser or a calendar app reaches it.
    func origin(port: Int? = nil) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(TLSSetup.isWanted(by: self) ? "https" : "http")://\(shownHost):\(port ?? Int(self.port))"
    }

    var databasePath: String {
        URL(fileURLWithPath: dataDirectory).appendingPathComponent("wishlist.sqlite").path
    }
}
