// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// `--gps` and `--strip-gps`: where shoot, camera and stream get their position.
import CamStamp
import Foundation

extension Commands {
    static let gps = Single<GPSOption>(
        "gps", value: "HOST:PORT",
        help: "Where the position for {lat}, {lon}, {latlon}, {alt}, {gps:accuracy} and {place} comes from: "
            + "auto (gpsd on localhost:2947 when it runs, else nothing), a gpsd's HOST:PORT, or off. "
            + "A photo taken with a fix gets EXIF GPS tags.",
        default: "auto"
    ) { text, option in try GPSOption(parsing: text, option: option) }
    static let stripPhotoGPS = Flag(
        "strip-gps", help: "Write no GPS tags into the photos (the marks still show the position).")

    static let tlsCertificate = Single<URL>(
        "tls-cert", value: "FILE",
        help: "Serve the page over HTTPS with this PEM certificate (with --tls-key), so that a phone's "
            + "browser on the LAN may send its position (browsers give it only to HTTPS pages and localhost)."
    ) { try existingFile($0, option: $1) }
    static let tlsKey = Single<URL>(
        "tls-key", value: "FILE", help: "The PEM private key of --tls-cert."
    ) { try existingFile($0, option: $1) }

    /// `--tls-cert` and `--tls-key`, both or neither.
    static func tlsFiles(_ values: OptionValues) throws -> (certificate: URL, key: URL)? {
        let certificate = try values.get(tlsCertificate), key = try values.get(tlsKey)
        switch (certificate, key) {
        case (nil, nil): return nil
        case (let certificate?, let key?): return (certificate, key)
        case (nil, _): throw OptionValueError("'--tls-key' needs '--tls-cert' (the certificate of that key)")
        case (_, nil): throw OptionValueError("'--tls-cert' needs '--tls-key' (the certificate's private key)")
        }
    }

    /// The keys of a job that takes photos with a position.
    static let photoLocation: [any OptionKey] = [gps, stripPhotoGPS]

    /// `--gps`, and `--strip-gps` when `photos` (the job's table has it).
    static func locationOptions(_ values: OptionValues, photos: Bool) throws -> LocationOptions {
        var options = LocationOptions()
        if let gps = try values.get(gps) { options.gps = gps }
        if photos { options.stripGPS = values.get(stripPhotoGPS) }
        return options
    }
}
