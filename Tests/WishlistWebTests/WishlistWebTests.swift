import Testing
@testable import WishlistWeb
