enum GatewayPlaceholder {}
