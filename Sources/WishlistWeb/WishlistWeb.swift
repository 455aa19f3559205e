// WishlistWeb
