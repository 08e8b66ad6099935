class Cart
