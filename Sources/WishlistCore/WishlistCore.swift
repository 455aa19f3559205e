// WishlistCore
