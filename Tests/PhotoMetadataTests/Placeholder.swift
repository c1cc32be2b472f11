import Testing
@testable import PhotoMetadata
