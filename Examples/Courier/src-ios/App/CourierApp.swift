import SwiftUI
import CourierKit
