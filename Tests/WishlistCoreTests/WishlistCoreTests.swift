import Testing
@testable import WishlistCore
