import CarFitCore

/// The device's registration as the devices server takes it: `{"clientId", "platform",
/// "token"}` (token null to unregister).
public enum DeviceWire {
    public static func body(clientId: String, platform: String?, token: String?) -> [UInt8] {
        JSON.obj(["clientId": .string(clientId), "platform": .str(platform), "token": .str(token)]).encodedBytes()
    }
}
